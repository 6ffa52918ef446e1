import { z } from 'zod';
import { across, integer, oneOf, text } from '../shared/command-fields';
import { InterpretationMode, ServiceType } from './catalog.enums';

/** The largest price a rate card line may be set to, in cents ($100,000): a guard against a typo's extra zeros. */
const MAX_PRICE_CENTS = 10_000_000;

/** Admins' `updateRate`: the price of one rate card line, named by exactly one of the three (D7). */
export const updateRateCommand = z
  .object({
    serviceType: oneOf(Object.values(ServiceType)),
    addonCode: text({ max: 50 }),
    interpretationMode: oneOf(Object.values(InterpretationMode)),
    priceCents: integer({ required: true, min: 0, max: MAX_PRICE_CENTS }),
  })
  .check(
    across(['serviceType', 'addonCode', 'interpretationMode'], (command, ctx) => {
      const named = [command.serviceType, command.addonCode, command.interpretationMode].filter(
        (line) => line !== undefined,
      );
      if (named.length !== 1)
        ctx.addIssue({
          code: 'custom',
          path: ['rate'],
          message: 'Name exactly one rate: service_type, addon_code or interpretation_mode.',
          input: command,
        });
    }),
  );
export type UpdateRate = z.output<typeof updateRateCommand>;
