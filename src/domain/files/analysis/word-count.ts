/** Words by Unicode word segmentation (ICU), so Chinese, Japanese and Thai count sensibly (D5). */
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

export function countWords(text: string): number {
  let words = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) words++;
  return words;
}

export const WORDS_PER_PAGE = 250;

/** Certified billing pages: a document of 250 words or fewer is one page (contract 2.2, D5). */
export const billingPages = (words: number): number => Math.max(1, Math.ceil(words / WORDS_PER_PAGE));
