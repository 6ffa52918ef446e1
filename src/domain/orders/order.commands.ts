import { z } from 'zod';
import { id, oneOf, text, zonedDateTime } from '../shared/command-fields';
import { isId } from '../shared/ids';
import { pageFields } from '../shared/pagination';
import { OrderStatus } from './order.entity';
import { StaffOrderQueue } from './order-read';

/** `GET /orders` and `orders`: newest first, or with `updated_since` what changed since, oldest change first (D23). */
export const listOrdersCommand = z.object({
  status: oneOf(Object.values(OrderStatus)),
  updatedSince: zonedDateTime(),
  ...pageFields,
});
export type ListOrders = z.output<typeof listOrdersCommand>;

/** Staff's `staffOrders`: every account's orders, filtered (docs/decisions.md G4, G5). */
export const staffOrdersCommand = z.object({
  status: oneOf(Object.values(OrderStatus)),
  queue: oneOf(Object.values(StaffOrderQueue)),
  accountId: id(),
  assigneeId: id(),
  overdue: z.boolean().optional(),
  search: text({ max: 255 }),
  ...pageFields,
});
export type StaffOrders = z.output<typeof staffOrdersCommand>;

/** Said of a malformed id as of an unknown or deactivated one: none names an active staff user. */
export const NO_ACTIVE_STAFF_USER = 'The staff user id field must name an active staff user.';

/** Staff's `assignOrder`: a staff member's id, or null to unassign; whether they are active is the service's (D28). */
export const assignOrderCommand = z.object({
  staffUserId: z
    .unknown()
    .refine((raw) => raw === null || isId(raw), NO_ACTIVE_STAFF_USER)
    .optional()
    .transform((raw) => raw ?? null),
});
export type AssignOrder = z.output<typeof assignOrderCommand>;
