import { readFile } from 'node:fs/promises';

/** A PDF opened by pdf.js. Whoever opens one calls `destroy()` when done with it. */
export type PdfDocument = Awaited<ReturnType<(typeof import('unpdf'))['getDocumentProxy']>>;

/**
 * Opens a PDF with pdf.js (through unpdf, loaded with the first PDF read: it is ESM and, with pdf.js, heavy),
 * never evaluating code from the document. Rejects with pdf.js's own error (`PasswordException` when the PDF
 * is encrypted) when it cannot be opened.
 */
export async function openPdf(path: string): Promise<PdfDocument> {
  const { getDocumentProxy } = await import('unpdf');
  return getDocumentProxy(new Uint8Array(await readFile(path)), { isEvalSupported: false, stopAtErrors: false });
}

/**
 * The text layer of each page in order, one page at a time (each page's resources are freed before the next):
 * the text runs as pdf.js reads them, with a line break where pdf.js marks the end of a line.
 */
export async function* pageTexts(pdf: PdfDocument): AsyncGenerator<string> {
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) {
      if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
    }
    page.cleanup();
    yield text;
  }
}
