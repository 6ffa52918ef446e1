import { AnalysisLimitError, type AnalysisResult } from './analysis-result';
import { docxWords } from './docx-words';
import { DOCX, PDF } from '../../../documents/formats';
import { pdfWords } from './pdf-words';

/** The limits one analysis works within; time and memory are enforced around it (analysis-sandbox.ts). */
export const ANALYSIS_LIMITS = {
  maxPdfPages: 2000,
  docx: { maxEntries: 10_000, maxUnpackedBytes: 512 * 1024 * 1024, maxCompressionRatio: 200 },
};

/** Counts the words of the document at `path`; images and anything without text end uncountable (D5). */
export async function analyseDocument(path: string, mimeType: string): Promise<AnalysisResult> {
  try {
    if (mimeType === PDF) return await pdfWords(path, ANALYSIS_LIMITS.maxPdfPages);
    if (mimeType === DOCX) return await docxWords(path, ANALYSIS_LIMITS.docx);
    return { kind: 'uncountable', reason: 'image' };
  } catch (error) {
    if (error instanceof AnalysisLimitError) return { kind: 'uncountable', reason: error.reason };
    // The sandbox's memory limit refused a buffer (D25): a bomb that pdf.js or zlib tried to inflate.
    if (error instanceof RangeError && /allocation failed/i.test(error.message)) return { kind: 'uncountable', reason: 'out_of_memory' };
    // A document the parsers cannot read (broken zip, malformed XML, damaged PDF) has no countable text.
    return { kind: 'uncountable', reason: 'corrupt' };
  }
}
