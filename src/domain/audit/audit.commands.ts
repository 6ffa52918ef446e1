import { z } from 'zod';
import { id, text, windowInOrder, zonedDateTime } from '../shared/command-fields';
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
  .check(windowInOrder());
export type ListAuditEntries = z.output<typeof listAuditEntriesCommand>;
