import { WORDS_PER_PAGE } from '../../documents/analysis/word-count';
import { BillingUnit } from '../catalog/catalog.enums';
import type { PricedWork } from './priced-work';

const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/**
 * What a quote or order bills, beside the pages on paper (D29), as checkout pages, e-mails and the certificate
 * word it: "24 billing pages (250 words each) for 18 document pages", "10 billing pages (250 words each) for 10
 * document pages, 9 of them scanned (one billing page each)", "1 billing page (250 words each) for 1 document page,
 * scanned (one billing page)", "5,541 words in 17 document pages".
 */
export function billedUnits(
  work: Pick<PricedWork, 'unitType' | 'unitCount' | 'documentPages' | 'scannedPages'>,
): string {
  const paper = work.documentPages === null ? '' : count(work.documentPages, 'document page');
  if (work.unitType !== BillingUnit.PAGE)
    return paper ? `${count(work.unitCount, work.unitType)} in ${paper}` : count(work.unitCount, work.unitType);
  const billed = `${count(work.unitCount, 'billing page')} (${WORDS_PER_PAGE} words each)`;
  if (!paper) return billed;
  return `${billed} for ${paper}${scannedClause(work.scannedPages ?? 0, work.documentPages ?? 0)}`;
}

/** Which of the document pages are scans, each billed as one page; worded for one page as for many. */
function scannedClause(scanned: number, pages: number): string {
  if (!scanned) return '';
  const which = scanned < pages ? `${scanned.toLocaleString('en-US')} of them ` : pages === 1 ? '' : 'all of them ';
  return `, ${which}scanned (one billing page${scanned === 1 ? '' : ' each'})`;
}
