import { z } from 'zod';
import { across, id, text, zonedDateTime } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';

/** Staff's `auditLog`: by resource, actor, action and a window of time, `from` inclusive and `to` exclusive (D3). */
export const listAuditEntriesCommand = z
  .object({
    resourceId: text({ max: 255 }),
    actorId: id(),
    action: text({ max: 100 }),
    from: zonedDateTime(),
    to: zonedDateTime(),
    ...pageFields,
  })
  .check(
    across(['from', 'to'], (command, ctx) => {
      if (command.from && command.to && command.from.date >= command.to.date)
        ctx.addIssue({
          code: 'custom',
          path: ['to'],
          message: 'The to field must be after the from field.',
          input: command.to,
        });
    }),
  );
export type ListAuditEntries = z.output<typeof listAuditEntriesCommand>;
