import { BillingUnit } from '../../src/domain/catalog/catalog.enums';
import { billedUnits } from '../../src/domain/quotes/billed-units';

/** D29: what was billed beside the pages on paper, as checkouts, e-mails and certificates word it, for one or many. */
const pages = (unitCount: number, documentPages: number | null, scannedPages: number | null = null) =>
  billedUnits({ unitType: BillingUnit.PAGE, unitCount, documentPages, scannedPages });

it.each([
  [pages(24, 18), '24 billing pages (250 words each) for 18 document pages'],
  [pages(3, null), '3 billing pages (250 words each)'],
  [
    pages(10, 10, 9),
    '10 billing pages (250 words each) for 10 document pages, 9 of them scanned (one billing page each)',
  ],
  [pages(3, 2, 1), '3 billing pages (250 words each) for 2 document pages, 1 of them scanned (one billing page)'],
  [
    pages(4, 4, 4),
    '4 billing pages (250 words each) for 4 document pages, all of them scanned (one billing page each)',
  ],
  // A one-page scan, the usual certified birth certificate: no "1 of them".
  [pages(1, 1, 1), '1 billing page (250 words each) for 1 document page, scanned (one billing page)'],
  [
    billedUnits({ unitType: BillingUnit.WORD, unitCount: 5541, documentPages: 17, scannedPages: 0 }),
    '5,541 words in 17 document pages',
  ],
])('%s', (worded, expected) => expect(worded).toBe(expected));
