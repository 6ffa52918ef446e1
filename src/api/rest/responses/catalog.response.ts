import { z } from 'zod';
import { BookingStatus } from '../../../domain/bookings/booking.entity';
import { UNPAID } from '../../../domain/bookings/booking.states';
import { AddonPricingType, BillingUnit, InterpretationMode, ServiceType } from '../../../domain/catalog/catalog.enums';
import { Cents, Currency } from './base.response';
import { component, documented } from './response-registry';

/** A language as `listLanguages` answers it, with the services it can be ordered in (D29). */
export const Language = component(
  'Language',
  z.strictObject({
    code: documented(
      z.string(),
      'Canonical BCP 47 code, as quotes and bookings take it (matched in any case) and answer it.',
      ['es-MX'],
    ),
    name: documented(z.string(), 'English display name from CLDR.', ['Mexican Spanish']),
    services: documented(
      z.array(z.enum(ServiceType)).min(1).meta({ uniqueItems: true }),
      'The services this language can be ordered in. `certified` always; `standard` (machine translation) only where the translation engine reads and writes the language, ' +
        "and a standard quote needs both of its languages to list it (a pair the engine cannot translate is 422). While the engine's languages cannot be read, only `certified` is listed.",
    ),
  }),
);

export const ServiceRate = component(
  'ServiceRate',
  z.strictObject({
    service_type: documented(z.enum(ServiceType), 'The translation service this rate prices.'),
    unit: documented(
      z.enum([BillingUnit.PAGE, BillingUnit.WORD]),
      'What is counted: pages of 250 words or fewer for certified work, words for standard.',
    ),
    unit_price_cents: Cents.describe('Price of one unit in cents.'),
    currency: Currency.describe('Currency of the price.'),
  }),
);

export const Addon = component(
  'Addon',
  z.strictObject({
    code: documented(
      z.string(),
      "What a quote's `addons[].code` names: `notarization` (certified only), `hard_copy` (mailed copies), `rush_2h` (delivery within about two hours of payment).",
      ['hard_copy'],
    ),
    name: documented(z.string(), 'English name for people.', ['Mailed hard copy']),
    pricing_type: documented(
      z.enum(AddonPricingType),
      '`flat`: once per order. `per_copy`: times the `quantity` asked for (1 to 10).',
    ),
    price_cents: Cents.describe('Price in cents, once or per copy.'),
    currency: Currency.describe('Currency of the price.'),
  }),
);

export const InterpretationRate = component(
  'InterpretationRate',
  z.strictObject({
    mode: documented(z.enum(InterpretationMode), 'The interpretation mode this rate prices.'),
    unit: documented(z.literal(BillingUnit.HOUR), 'Interpretation is billed by the hour.'),
    unit_price_cents: Cents.describe('Price of one billable hour in cents, whatever the languages or setting.'),
    minimum_hours: documented(z.number().int(), 'Hours billed at least, however short the assignment.'),
    currency: Currency.describe('Currency of the price.'),
  }),
);

export const CancellationTier = component(
  'CancellationTier',
  z.strictObject({
    hours_before_start_at_least: documented(
      z.number().int().min(0),
      'Notice this tier needs, in hours before the start: 48 means 48 h 0 min or more.',
    ),
    refund_percent: documented(
      z.number().int().min(0).max(100),
      'Share of what was paid that is refunded; the rest is the cancellation fee.',
    ),
  }),
);

export const BookingPolicy = component(
  'BookingPolicy',
  z.strictObject({
    free_cancellation_statuses: documented(
      // The domain types them as statuses; the document names the ones they are.
      z.array(z.enum(BookingStatus).meta({ enum: [...UNPAID] })),
      'Statuses in which a booking cancels free (`POST /interpretation-bookings/{id}/cancel`).',
    ),
    tiers: documented(
      z.array(CancellationTier),
      'Longest notice first: the first tier whose hours the notice reaches applies.',
    ),
    waivable_by_staff: documented(z.boolean(), 'The operator may waive the fee and refund all of it.'),
  }),
);

/** The rates and add-ons `getPricing` answers (D7), and the bookings' cancellation policy (D32). */
export const Pricing = component(
  'Pricing',
  z.strictObject({
    services: documented(z.array(ServiceRate), 'Translation rates, one per service type.'),
    addons: documented(z.array(Addon), 'Add-ons a quote may ask for.'),
    interpretation: documented(z.array(InterpretationRate), 'Hourly interpretation rates, one per mode.'),
    booking_policy: BookingPolicy.describe(
      'What cancelling an interpretation booking costs. The client cancels free while it is `requested` or `awaiting_payment`; a paid (`confirmed`) booking is cancelled by the operator, who refunds by the hours left before `scheduled_at`, counted in UTC.',
    ),
  }),
);

export type LanguageJson = z.output<typeof Language>;
export type PricingJson = z.output<typeof Pricing>;
