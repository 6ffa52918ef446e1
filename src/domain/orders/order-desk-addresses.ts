import type { EntityManager } from '@mikro-orm/core';
import { StaffRole, StaffUser } from '../identity/staff-user.entity';

/** Who reads the desk's side of an order when it is assigned to no one (D28's desk). */
const THE_DESK = [StaffRole.ADMIN, StaffRole.DESK];

/**
 * Where staff e-mails about an order go (a client's message, a revision asked for, D30): the staff member it is
 * assigned to, while active; otherwise everyone active at the desk.
 */
export async function orderDeskAddresses(em: EntityManager, assigneeId: string | null | undefined): Promise<string[]> {
  const assignee = assigneeId ? await em.findOne(StaffUser, { id: assigneeId, deactivatedAt: null }) : null;
  if (assignee) return [assignee.email];
  const desk = await em.find(StaffUser, { role: { $in: THE_DESK }, deactivatedAt: null }, { orderBy: { id: 'asc' } });
  return desk.map((staff) => staff.email);
}
