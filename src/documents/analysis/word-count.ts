/** Words by Unicode word segmentation (ICU), so Chinese, Japanese and Thai count sensibly (D5). */
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

export function countWords(text: string): number {
  let words = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) words++;
  return words;
}

export const WORDS_PER_PAGE = 250;

/**
 * Certified billing pages: the text by 250 words a page, a document of 250 words or fewer being one (the
 * `page` unit of `getPricing`'s certified rate, D5), plus one for each scanned page (D29).
 */
export const billingPages = (words: number, scannedPages = 0): number =>
  Math.max(1, Math.ceil(words / WORDS_PER_PAGE)) + scannedPages;
