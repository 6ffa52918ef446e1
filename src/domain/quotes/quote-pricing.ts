import { AddonPricingType, BillingUnit, ServiceType, type DocumentUnit } from '../catalog/catalog.enums';
import type { Addon, ServiceRate } from '../catalog/rates.entity';
import type { QuotedAddon } from './quote.entity';

export interface PricedFile {
  pageCount: number | null;
  wordCount: number | null;
  documentPages: number | null;
  scannedPages: number | null;
}

export interface QuotePrice {
  unitType: DocumentUnit;
  unitCount: number;
  documentPages: number | null;
  scannedPages: number | null;
  unitPriceCents: number;
  subtotalCents: number;
  addons: QuotedAddon[];
  addonsTotalCents: number;
  totalCents: number;
  currency: string;
}

/**
 * `createQuote` and D7-D8: certified = pages x per-page price, standard = words x per-word price. Files without a
 * detected count are priced by `undetectedUnits` (the client's `unit_count`), added to the detected ones.
 * Inputs are already validated; this only computes.
 */
export function priceQuote(input: {
  serviceType: ServiceType;
  rate: ServiceRate;
  /** Every file of the quote: an uncountable one has no count to add, and its pages are still shown (D29). */
  files: PricedFile[];
  undetectedUnits: number;
  addons: { addon: Addon; quantity: number }[];
}): QuotePrice {
  const detected = input.files.reduce(
    (sum, file) => sum + ((input.serviceType === ServiceType.CERTIFIED ? file.pageCount : file.wordCount) ?? 0),
    0,
  );
  const unitCount = detected + input.undetectedUnits;
  const subtotalCents = unitCount * input.rate.unitPriceCents;
  const addons = input.addons.map(({ addon, quantity }) => ({
    code: addon.code,
    quantity,
    unitPriceCents: addon.priceCents,
    totalCents: addon.pricingType === AddonPricingType.PER_COPY ? addon.priceCents * quantity : addon.priceCents,
  }));
  const addonsTotalCents = addons.reduce((sum, line) => sum + line.totalCents, 0);
  return {
    unitType: input.serviceType === ServiceType.CERTIFIED ? BillingUnit.PAGE : BillingUnit.WORD,
    unitCount,
    documentPages: sumKnown(input.files.map((file) => file.documentPages)),
    scannedPages: sumKnown(input.files.map((file) => file.scannedPages)),
    unitPriceCents: input.rate.unitPriceCents,
    subtotalCents,
    addons,
    addonsTotalCents,
    totalCents: subtotalCents + addonsTotalCents,
    currency: input.rate.currency,
  };
}

/** The total when every part is known, else null: a partial sum would understate the pages. */
const sumKnown = (values: (number | null)[]): number | null =>
  values.some((value) => value === null) ? null : values.reduce<number>((sum, value) => sum + value!, 0);
