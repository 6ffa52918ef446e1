import { dataOf, json, ref } from './components';
import { exampleLanguages, examplePricing } from './examples';

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
