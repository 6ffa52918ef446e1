import { dataOf, json, object, ref } from './components';

export const catalogSchemas = {
  Language: object({ code: { type: 'string', examples: ['es-MX'] }, name: { type: 'string', examples: ['Mexican Spanish'] } }),
  ServiceRate: object({
    service_type: { enum: ['certified', 'standard'] },
    unit: { enum: ['page', 'word'] },
    unit_price_cents: ref('Cents'),
    currency: ref('Currency'),
  }),
  Addon: object({
    code: { type: 'string', examples: ['hard_copy'] },
    name: { type: 'string' },
    pricing_type: { enum: ['flat', 'per_copy'] },
    price_cents: ref('Cents'),
    currency: ref('Currency'),
  }),
  InterpretationRate: object({
    mode: { enum: ['on_site', 'video_remote', 'sight_translation', 'asl', 'ai_conference'] },
    unit: { const: 'hour' },
    unit_price_cents: ref('Cents'),
    minimum_hours: { type: 'integer' },
    currency: ref('Currency'),
  }),
  Pricing: object({
    services: { type: 'array', items: ref('ServiceRate') },
    addons: { type: 'array', items: ref('Addon') },
    interpretation: { type: 'array', items: ref('InterpretationRate') },
  }),
};

export const catalogPaths = {
  '/languages': {
    get: {
      operationId: 'listLanguages',
      tags: ['Catalog'],
      summary: 'List languages',
      description: 'More than 200 languages and variants, BCP 47 codes, CLDR English names, sorted by name (D6). No authentication.',
      security: [],
      responses: { 200: json(dataOf({ type: 'array', minItems: 200, items: ref('Language') }), 'The language catalog.') },
    },
  },
  '/pricing': {
    get: {
      operationId: 'getPricing',
      tags: ['Catalog'],
      summary: 'Rates and add-on catalog',
      description: 'Translation rates, add-ons and interpretation hourly rates (D7). No authentication.',
      security: [],
      responses: { 200: json(dataOf(ref('Pricing')), 'The rate card.') },
    },
  },
};
