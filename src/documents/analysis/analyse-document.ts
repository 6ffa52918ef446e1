import { AnalysisLimitError, IMAGE_PAGES, UNKNOWN_PAGES, type AnalysisResult } from './analysis-result';
import { docxWords } from './docx-words';
import { DOCX, PDF } from '../formats';
import { DOCUMENT_LIMITS } from '../limits';
import { pdfWords } from './pdf-words';

/** Counts the words of the document at `path`; images and anything without text end uncountable (D5). */
export async function analyseDocument(path: string, mimeType: string): Promise<AnalysisResult> {
  try {
    if (mimeType === PDF) return await pdfWords(path, DOCUMENT_LIMITS.maxPdfPages);
    if (mimeType === DOCX) return await docxWords(path, DOCUMENT_LIMITS.zip);
    return { kind: 'uncountable', reason: 'image', ...IMAGE_PAGES };
  } catch (error) {
    if (error instanceof AnalysisLimitError) return { kind: 'uncountable', reason: error.reason, ...error.pages };
    // The sandbox's memory limit refused a buffer (D25): a bomb that pdf.js or zlib tried to inflate.
    if (error instanceof RangeError && /allocation failed/i.test(error.message))
      return { kind: 'uncountable', reason: 'out_of_memory', ...UNKNOWN_PAGES };
    // A document the parsers cannot read (broken zip, malformed XML, damaged PDF) has no countable text.
    return { kind: 'uncountable', reason: 'corrupt', ...UNKNOWN_PAGES };
  }
}
