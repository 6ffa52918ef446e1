import type { EntityManager } from '@mikro-orm/core';
import { accountOf } from '../identity/account-of';
import { AccountMember, MemberStatus } from '../identity/member.entity';
import { StaffRole, StaffUser } from '../identity/staff-user.entity';
import type { Order } from '../orders/order.entity';

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

/**
 * Where the desk's e-mails about an order go (D30): the account's e-mail, and the member who placed the order while
 * they are still one of its people.
 */
export async function orderClientAddresses(em: EntityManager, order: Order): Promise<string[]> {
  const account = await accountOf(em, order);
  const placer = order.placedBy.member
    ? await em.findOne(AccountMember, {
        id: order.placedBy.member.id,
        account: account.id,
        status: { $ne: MemberStatus.REMOVED },
      })
    : null;
  return [...new Set([account.email, ...(placer ? [placer.email] : [])].map((email) => email.toLowerCase()))];
}
