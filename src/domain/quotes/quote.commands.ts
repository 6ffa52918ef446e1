import { z } from 'zod';
import { ServiceType } from '../catalog/catalog.enums';
import { differentLanguages, languageCode } from '../catalog/language-pair';
import { across, integer, list, nested, oneOf, text } from '../shared/command-fields';
import { isId } from '../shared/ids';
import { pageFields } from '../shared/pagination';
import { MAX_INSTRUCTIONS, MAX_PURCHASE_ORDER } from './priced-work';
import { QuoteStatus } from './quote.entity';
import { HARD_COPY, shippingAddressField } from './shipping-address';

export const MAX_FILES_PER_QUOTE = 20;
export const MAX_COPIES = 10;
const MAX_UNIT_COUNT = 1_000_000;

/** Source files by id, each once. An id that cannot exist reads the same as someone else's (D8). */
const fileIds = list(z.unknown().meta({ type: 'string', format: 'uuid', maxLength: 36 }), {
  required: true,
  min: 1,
  max: MAX_FILES_PER_QUOTE,
  across: (ids, ctx) => {
    for (const { index, value } of ids)
      if (!isId(value))
        ctx.addIssue({
          code: 'custom',
          message: `The file_ids.${index} field must be one of your uploaded source files.`,
          input: value,
        });
    if (new Set(ids.map(({ value }) => String(value).toLowerCase())).size !== ids.length)
      ctx.addIssue({ code: 'custom', message: 'The file ids field has a duplicate value.', input: ids });
  },
}).transform((ids) => ids.map((id) => String(id).toLowerCase()));

/** Add-ons of `GET /pricing`, each code at most once; the catalog's own rules are the service's (D8). */
const addons = list(
  nested(
    { code: text({ required: true, max: 50 }), quantity: integer({ min: 1, max: MAX_COPIES }) },
    { required: true },
  ),
  {
    max: 10,
    across: (requests, ctx) => {
      requests.forEach(({ index, value }, position) => {
        if (requests.findIndex((other) => other.value.code === value.code) < position)
          ctx.addIssue({
            code: 'custom',
            path: [index, 'code'],
            message: `The addons.${index}.code field has a duplicate value.`,
            input: value.code,
          });
      });
    },
  },
);

/** `POST /quotes` and `createQuote` (D7, D8, D22, D30). */
export const createQuoteCommand = z
  .object({
    sourceLanguage: languageCode(),
    targetLanguage: languageCode(),
    serviceType: oneOf(Object.values(ServiceType), { required: true }),
    fileIds,
    unitCount: integer({ min: 1, max: MAX_UNIT_COUNT }),
    addons,
    reference: text({ max: 255, printed: true }),
    purchaseOrder: text({ max: MAX_PURCHASE_ORDER, printed: true }),
    shippingAddress: shippingAddressField(),
    instructions: text({ max: MAX_INSTRUCTIONS }),
  })
  .check(across(['sourceLanguage', 'targetLanguage'], differentLanguages))
  .check(
    across(['addons'], (command, ctx) => {
      // The address may come now or later, on the order (v1 clients never send it, D22); without hard copies it would never be used.
      if (command.shippingAddress !== undefined && !command.addons?.some((addon) => addon.code === HARD_COPY))
        ctx.addIssue({
          code: 'custom',
          path: ['shippingAddress'],
          message: 'The shipping address field is only for quotes with hard copies.',
          input: command.shippingAddress,
        });
    }),
  );
export type CreateQuote = z.output<typeof createQuoteCommand>;

/** `GET /quotes` and `quotes`: newest first, filtered on what clients see (D3). */
export const listQuotesCommand = z.object({ status: oneOf(Object.values(QuoteStatus)), ...pageFields });
export type ListQuotes = z.output<typeof listQuotesCommand>;
