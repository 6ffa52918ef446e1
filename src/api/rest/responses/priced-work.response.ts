import { z } from 'zod';
import { BillingUnit, ServiceType } from '../../../domain/catalog/catalog.enums';
import { PlacedByKind } from '../../../domain/identity/placed-by';
import { Cents, Currency, Id } from './base.response';
import { component, documented } from './response-registry';

/** D27: who made a quote, order or booking. */
export const PlacedBy = component(
  'PlacedBy',
  z.strictObject({
    kind: documented(
      z.enum(PlacedByKind),
      "`api_key`: made with the account's API key; `member`: made by a signed-in member of the account.",
    ),
    member: documented(
      z
        .strictObject({
          id: Id.describe("The member's id."),
          name: documented(z.string(), "The member's name."),
          email: documented(z.string().meta({ format: 'email' }), "The member's e-mail, with which they sign in."),
        })
        .nullable(),
      'The member as they were when they made it (a member removed since is still named); null for the API key.',
    ),
  }),
);

const optionalLine = (maxLength: number, description: string) =>
  documented(z.string().max(maxLength).nullable(), description);

export const ShippingAddress = component(
  'ShippingAddress',
  z
    .strictObject({
      name: documented(z.string().max(200), 'Who receives the parcel.'),
      line1: documented(z.string().max(200), 'Street address.'),
      line2: optionalLine(200, 'Suite, floor or care-of line; null when there is none.'),
      city: documented(z.string().max(100), 'City or town.'),
      region: optionalLine(100, 'State, province or county, where the country uses one; null otherwise.'),
      postal_code: documented(z.string().max(20), 'Postal or ZIP code.'),
      country: documented(z.string().regex(/^[A-Z]{2}$/), 'ISO 3166-1 alpha-2 country code, in upper case.'),
    })
    .describe(
      'Where mailed hard copies go: only with the `hard_copy` add-on, optional on the quote (v1 quotes never send it) and settable later with `PUT /orders/{id}/shipping_address` (`ShippingAddressRequest`). On quotes and their orders.',
    ),
);

export const QuotedAddon = component(
  'QuotedAddon',
  z.strictObject({
    code: documented(z.string(), 'The add-on code, as in `GET /pricing`.'),
    quantity: documented(z.number().int().min(1), 'Copies for a per-copy add-on; 1 for a flat one.'),
    unit_price_cents: Cents.describe(
      'Price of one copy (or the flat price) in cents, kept from when the quote was made.',
    ),
    total_cents: Cents.describe('`quantity` x `unit_price_cents`, in cents.'),
  }),
);

/** The priced fields quotes and orders share; an order copies them from its quote unchanged. */
export const pricedWork = {
  service_type: documented(
    z.enum(ServiceType),
    '`certified`: priced per page, reviewed by a named translator and delivered with a signed certificate of accuracy. ' +
      '`standard`: priced per word, machine translated and delivered as soon as it is done.',
  ),
  source_language: documented(
    z.string(),
    'Language of the documents, as a canonical BCP 47 code from `GET /languages` (`es`, `es-MX`, `zh-Hant`).',
    ['es'],
  ),
  target_language: documented(
    z.string(),
    'Language to translate into, a canonical code from `GET /languages`; never the same as `source_language`.',
    ['en'],
  ),
  unit_type: documented(
    z.enum([BillingUnit.PAGE, BillingUnit.WORD]),
    'What `unit_count` counts: `page` for certified work, `word` for standard.',
  ),
  unit_count: documented(
    z.number().int().min(1),
    "Billable units: the files' counted pages (certified; a page is 250 words or fewer, at least 1 per file, plus one per scanned page) or words (standard), " +
      'plus the `unit_count` the client gave for files that could not be counted.',
  ),
  document_pages: documented(
    z.number().int().min(1).nullable(),
    "The files' physical pages (their `document_pages`), beside the billing pages of `unit_count`, so a client sees why 24 pages are billed for 18 on paper; null when a file does not say.",
  ),
  scanned_pages: documented(
    z.number().int().min(0).nullable(),
    "The files' pages with no text layer (their `scanned_pages`), each one billing page on certified work; null when unknown.",
  ),
  subtotal_cents: Cents.describe('Translation price in cents: `unit_count` x the unit price, before add-ons.'),
  addons: documented(
    z.array(QuotedAddon),
    'Priced add-on lines, in the order requested; empty when none were asked for.',
  ),
  addons_total_cents: Cents.describe("Sum of the add-on lines' `total_cents`, in cents; 0 without add-ons."),
  total_cents: Cents.describe('What the client pays, in cents: `subtotal_cents` + `addons_total_cents`.'),
  currency: Currency.describe('Currency of every amount of this resource.'),
  reference: documented(
    z.string().max(255).nullable(),
    "The client's own reference (a matter or case number), as given; null when none was given.",
  ),
  purchase_order: documented(
    z.string().max(64).nullable(),
    "The client's purchase order number, as given on the quote and printed on invoices; null when none was given.",
  ),
  shipping_address: documented(
    ShippingAddress.nullable(),
    'Where the mailed hard copies go: only with the `hard_copy` add-on; null without it, and on an order with hard copies until the client gives one (`shipping_address_required`).',
  ),
  placed_by: PlacedBy.describe("Who made it: the account's API key, or a member signed in to the partner portal."),
  instructions: documented(
    z.string().max(2000).nullable(),
    'Instructions to the translator (name spellings as on a passport, terms, format), as given on the quote; null when none were given. Read by staff, never printed on the certificate.',
  ),
};

export type PricedWorkJson = z.output<z.ZodObject<typeof pricedWork>>;
export type PlacedByJson = z.output<typeof PlacedBy>;
