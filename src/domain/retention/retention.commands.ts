import { z } from 'zod';
import { across, integer, text } from '../shared/command-fields';

/** `setRetention` and staff's `setAccountRetention`: days, or null to keep documents for ever (D33). */
export const setRetentionCommand = z.object({ days: integer({ required: true, min: 1, max: 3650 }).nullable() });
export type SetRetention = z.output<typeof setRetentionCommand>;

/** `setLegalHold`: on with the reason it is kept for, or off (the reason, if given, is audited). */
export const setLegalHoldCommand = z.object({ on: z.boolean(), reason: text({ max: 500 }) }).check(
  across(['on', 'reason'], (command, ctx) => {
    if (command.on && !command.reason)
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'The reason field is required to place a legal hold.',
        input: command.reason,
      });
  }),
);
export type SetLegalHold = z.output<typeof setLegalHoldCommand>;
