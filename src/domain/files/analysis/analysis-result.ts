/** What analysing one document found: a word count, or the reason there is none. */
export type AnalysisResult =
  | { kind: 'counted'; words: number }
  | { kind: 'uncountable'; reason: UncountableReason };

export type UncountableReason =
  | 'image'
  | 'no_text'
  | 'encrypted'
  | 'corrupt'
  | 'too_many_pages'
  | 'too_large_unpacked'
  | 'timeout'
  | 'out_of_memory';

/** A document whose structure breaks a limit: analysis stops and the file ends uncountable. */
export class AnalysisLimitError extends Error {
  constructor(readonly reason: UncountableReason) {
    super(reason);
  }
}

export const counted = (words: number): AnalysisResult =>
  words > 0 ? { kind: 'counted', words } : { kind: 'uncountable', reason: 'no_text' };
