import { openPdf, pageTexts, type PdfDocument } from '../pdf-text';
import { AnalysisLimitError, counted, type AnalysisResult } from './analysis-result';
import { countWords } from './word-count';

/**
 * Counts the words of a PDF's text layer page by page (pdf.js through unpdf), and the pages that have none (D29:
 * scans and photos of paper; a blank page is one too, as nothing tells it from a white scan). A PDF with more pages
 * than `maxPages`, an encrypted one and a broken one end uncountable; one with no text layer counts nothing.
 */
export async function pdfWords(path: string, maxPages: number): Promise<AnalysisResult> {
  let pdf: PdfDocument;
  try {
    pdf = await openPdf(path);
  } catch (error) {
    const name = (error as { name?: string }).name;
    throw new AnalysisLimitError(name === 'PasswordException' ? 'encrypted' : 'corrupt');
  }
  try {
    if (pdf.numPages > maxPages)
      throw new AnalysisLimitError('too_many_pages', { documentPages: pdf.numPages, scannedPages: null });
    let words = 0;
    let scannedPages = 0;
    for await (const text of pageTexts(pdf)) {
      const pageWords = countWords(text);
      words += pageWords;
      if (pageWords === 0) scannedPages++;
    }
    return counted(words, { documentPages: pdf.numPages, scannedPages });
  } finally {
    await pdf.destroy();
  }
}
