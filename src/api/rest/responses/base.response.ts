import { z } from 'zod';
import { component } from './response-registry';

/** The formats every answer shares (D4). */
export const Id = component(
  'Id',
  z.string().meta({
    format: 'uuid',
    description: "A resource id (UUID). Ids of other accounts' resources answer 404 like unknown ones.",
    examples: ['0b6f7a4e-2c1d-4f8a-9e3b-5d7c1a2b3c4d'],
  }),
);

export const Timestamp = component(
  'Timestamp',
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    .meta({
      description: 'A point in time in UTC, always with six fractional digits and `Z` (`YYYY-MM-DDTHH:mm:ss.ffffffZ`).',
      examples: ['2026-11-22T09:30:00.123000Z'],
    }),
);

export const Cents = component(
  'Cents',
  z
    .number()
    .int()
    .min(0)
    .meta({
      description: "Money as an integer number of cents (1495 = 14.95) in the resource's `currency`; never a float.",
      examples: [1495],
    }),
);

export const Currency = component(
  'Currency',
  z
    .string()
    .regex(/^[A-Z]{3}$/)
    .meta({ description: 'ISO 4217 currency code.', examples: ['USD'] }),
);

/** A plain URL this API writes (a link, a page). */
export const Url = z.string().meta({ format: 'uri' });
