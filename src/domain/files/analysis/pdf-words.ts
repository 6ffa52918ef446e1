import { openPdf, pageTexts, type PdfDocument } from '../../../documents/pdf-text';
import { AnalysisLimitError, counted, type AnalysisResult } from './analysis-result';
import { countWords } from './word-count';

/**
 * Counts the words of a PDF's text layer page by page (pdf.js through unpdf). A PDF with more pages than
 * `maxPages`, an encrypted one and a broken one end uncountable; one with no text layer counts nothing.
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
    if (pdf.numPages > maxPages) throw new AnalysisLimitError('too_many_pages');
    let words = 0;
    for await (const text of pageTexts(pdf)) words += countWords(text);
    return counted(words);
  } finally {
    await pdf.destroy();
  }
}
