import { readFile } from 'node:fs/promises';
import { AnalysisLimitError, counted, type AnalysisResult } from './analysis-result';
import { countWords } from './word-count';

/**
 * Counts the words of a PDF's text layer page by page (pdf.js through unpdf). A PDF with more pages than
 * `maxPages`, an encrypted one and a broken one end uncountable; one with no text layer counts nothing.
 */
export async function pdfWords(path: string, maxPages: number): Promise<AnalysisResult> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(await readFile(path)), { isEvalSupported: false, stopAtErrors: false });
  } catch (error) {
    const name = (error as { name?: string }).name;
    throw new AnalysisLimitError(name === 'PasswordException' ? 'encrypted' : 'corrupt');
  }
  try {
    if (pdf.numPages > maxPages) throw new AnalysisLimitError('too_many_pages');
    let words = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      words += countWords(text);
      page.cleanup();
    }
    return counted(words);
  } finally {
    await pdf.destroy();
  }
}
