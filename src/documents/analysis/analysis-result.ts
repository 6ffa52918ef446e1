/**
 * What analysing one document found: a word count, or the reason there is none, and its pages (D29):
 * `documentPages` are physical pages (null when the document does not say), `scannedPages` the pages with no
 * text layer (null when unknown).
 */
export type AnalysisResult = PageFacts &
  ({ kind: 'counted'; words: number } | { kind: 'uncountable'; reason: UncountableReason });

export interface PageFacts {
  documentPages: number | null;
  scannedPages: number | null;
}

export type UncountableReason =
  'image' | 'no_text' | 'encrypted' | 'corrupt' | 'too_many_pages' | 'too_large_unpacked' | 'timeout' | 'out_of_memory';

/** Nothing is known of the pages of a document that could not be read. */
export const UNKNOWN_PAGES: PageFacts = { documentPages: null, scannedPages: null };

/** An image is one scanned page (D29). */
export const IMAGE_PAGES: PageFacts = { documentPages: 1, scannedPages: 1 };

/** A document whose structure breaks a limit: analysis stops and the file ends uncountable. */
export class AnalysisLimitError extends Error {
  constructor(
    readonly reason: UncountableReason,
    readonly pages: PageFacts = UNKNOWN_PAGES,
  ) {
    super(reason);
  }
}

export const counted = (words: number, pages: PageFacts): AnalysisResult =>
  words > 0 ? { kind: 'counted', words, ...pages } : { kind: 'uncountable', reason: 'no_text', ...pages };
