import { dataOf, described, json, object, ref } from './components';
import { exampleLanguages, examplePricing } from './examples';

const MODES = ['on_site', 'video_remote', 'sight_translation', 'asl', 'ai_conference'];

export const catalogSchemas = {
  Language: object({
    code: {
      type: 'string',
      description: 'Canonical BCP 47 code, as quotes and bookings take it (matched in any case) and answer it.',
      examples: ['es-MX'],
    },
    name: { type: 'string', description: 'English display name from CLDR.', examples: ['Mexican Spanish'] },
    services: {
      type: 'array',
      items: { enum: ['certified', 'standard'] },
      minItems: 1,
      uniqueItems: true,
      description:
        'The services this language can be ordered in. `certified` always; `standard` (machine translation) only where the translation engine reads and writes the language, ' +
        "and a standard quote needs both of its languages to list it (a pair the engine cannot translate is 422). While the engine's languages cannot be read, only `certified` is listed.",
    },
  }),
  ServiceRate: object({
    service_type: { enum: ['certified', 'standard'], description: 'The translation service this rate prices.' },
    unit: {
      enum: ['page', 'word'],
      description: 'What is counted: pages of 250 words or fewer for certified work, words for standard.',
    },
    unit_price_cents: described(ref('Cents'), 'Price of one unit in cents.'),
    currency: described(ref('Currency'), 'Currency of the price.'),
  }),
  Addon: object({
    code: {
      type: 'string',
      description:
        "What a quote's `addons[].code` names: `notarization` (certified only), `hard_copy` (mailed copies), `rush_2h` (delivery within about two hours of payment).",
      examples: ['hard_copy'],
    },
    name: { type: 'string', description: 'English name for people.', examples: ['Mailed hard copy'] },
    pricing_type: {
      enum: ['flat', 'per_copy'],
      description: '`flat`: once per order. `per_copy`: times the `quantity` asked for (1 to 10).',
    },
    price_cents: described(ref('Cents'), 'Price in cents, once or per copy.'),
    currency: described(ref('Currency'), 'Currency of the price.'),
  }),
  InterpretationRate: object({
    mode: { enum: MODES, description: 'The interpretation mode this rate prices.' },
    unit: { const: 'hour', description: 'Interpretation is billed by the hour.' },
    unit_price_cents: described(
      ref('Cents'),
      'Price of one billable hour in cents, whatever the languages or setting.',
    ),
    minimum_hours: { type: 'integer', description: 'Hours billed at least, however short the assignment.' },
    currency: described(ref('Currency'), 'Currency of the price.'),
  }),
  Pricing: object({
    services: { type: 'array', items: ref('ServiceRate'), description: 'Translation rates, one per service type.' },
    addons: { type: 'array', items: ref('Addon'), description: 'Add-ons a quote may ask for.' },
    interpretation: {
      type: 'array',
      items: ref('InterpretationRate'),
      description: 'Hourly interpretation rates, one per mode.',
    },
    booking_policy: described(
      ref('BookingPolicy'),
      'What cancelling an interpretation booking costs. The client cancels free while it is `requested` or `awaiting_payment`; a paid (`confirmed`) booking is cancelled by the operator, who refunds by the hours left before `scheduled_at`, counted in UTC.',
    ),
  }),
  BookingPolicy: object({
    free_cancellation_statuses: {
      type: 'array',
      items: { enum: ['requested', 'awaiting_payment'] },
      description: 'Statuses in which a booking cancels free (`POST /interpretation-bookings/{id}/cancel`).',
    },
    tiers: {
      type: 'array',
      items: ref('CancellationTier'),
      description: 'Longest notice first: the first tier whose hours the notice reaches applies.',
    },
    waivable_by_staff: { type: 'boolean', description: 'The operator may waive the fee and refund all of it.' },
  }),
  CancellationTier: object({
    hours_before_start_at_least: {
      type: 'integer',
      minimum: 0,
      description: 'Notice this tier needs, in hours before the start: 48 means 48 h 0 min or more.',
    },
    refund_percent: {
      type: 'integer',
      minimum: 0,
      maximum: 100,
      description: 'Share of what was paid that is refunded; the rest is the cancellation fee.',
    },
  }),
};

export const catalogPaths = {
  '/languages': {
    get: {
      operationId: 'listLanguages',
      tags: ['Catalog'],
      summary: 'List languages',
      description:
        'More than 200 languages and variants (regional, script and sign languages) with BCP 47 codes and CLDR English names, sorted by name. No authentication; limited per client address.',
      security: [],
      responses: {
        200: json(
          dataOf({ type: 'array', minItems: 200, items: ref('Language') }, 'Every language, sorted by name.'),
          'The language catalog.',
          { data: exampleLanguages },
        ),
      },
    },
  },
  '/pricing': {
    get: {
      operationId: 'getPricing',
      tags: ['Catalog'],
      summary: 'Rates and add-on catalog',
      description:
        'The current rate card: translation rates, add-ons and interpretation hourly rates. Quotes and bookings keep the prices they were made with; a later change here never alters them. No authentication; limited per client address.',
      security: [],
      responses: { 200: json(dataOf(ref('Pricing'), 'The rate card.'), 'The rate card.', { data: examplePricing }) },
    },
  },
};
