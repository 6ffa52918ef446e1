import { Account } from '../accounts/account.entity';
import { requireStaff } from '../accounts/authentication.service';
import type { Ctx } from '../shared/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isId } from '../shared/ids';
import { Validator } from '../shared/validation';
import { StaffUser } from '../staff/staff-user.entity';
import { Notarization } from '../certification/notarization.entity';
import { OrderNote } from './order-note.entity';
import type { Order } from './order.entity';
import type { OrderService } from './order.service';

/** The staff desk around an order (D19, D21): who works on it, internal notes, and what the staff view shows. Audited. */
export class OrderDeskService {
  constructor(private readonly deps: { orders: OrderService }) {}

  /** Assigns the order to an active staff member, or unassigns it (`staff_user_id` null). */
  async assign(ctx: Ctx, orderId: unknown, staffUserId: unknown): Promise<Order> {
    requireStaff(ctx.actor, 'assignOrder');
    if (!isId(orderId)) throw new NotFoundError();
    const assigneeId = staffUserId ?? null;
    if (assigneeId !== null && !isId(assigneeId)) throw ValidationError.of('staff_user_id', 'The staff user id field must name an active staff user.');
    return this.deps.orders.lifecycle.change(ctx.em, { id: orderId }, async (em, order) => {
      const assignee = assigneeId ? await em.findOne(StaffUser, { id: assigneeId, deactivatedAt: null }) : null;
      if (assigneeId && !assignee) throw ValidationError.of('staff_user_id', 'The staff user id field must name an active staff user.');
      const before = order.assignee?.id ?? null;
      order.assignee = assignee;
      await em.flush();
      this.deps.orders.lifecycle.record(em, order, order.status, { actor: ctx.actor, action: 'assign' }, { from_assignee_id: before, assignee_id: assignee?.id ?? null });
    });
  }

  /** An internal note (never shown to the client). */
  async addNote(ctx: Ctx, orderId: unknown, input: { text?: unknown }): Promise<OrderNote> {
    const author = requireStaff(ctx.actor, 'addOrderNote');
    const v = new Validator(input);
    const text = v.string('text', { required: true, max: 5000 });
    v.done();
    if (!isId(orderId)) throw new NotFoundError();
    let note!: OrderNote;
    await this.deps.orders.lifecycle.change(ctx.em, { id: orderId }, async (em, order) => {
      note = Object.assign(new OrderNote(), { order, author: em.getReference(StaffUser, author.id), text: text! });
      em.persist(note);
      this.deps.orders.lifecycle.record(em, order, order.status, { actor: ctx.actor, action: 'add_note' }, { note_id: note.id });
    });
    return note;
  }

  /**
   * Whose order it is. `OrderService.staffList()` and `staffGet()` load it with the order: the identity map
   * answers then without a query.
   */
  async account(ctx: Ctx, order: Order): Promise<Account> {
    requireStaff(ctx.actor, 'Order.account');
    return ctx.em.findOneOrFail(Account, { id: order.account.id });
  }

  /** The staff member the order is assigned to, if any; loaded with the order, as `account()` is. */
  async assignee(ctx: Ctx, order: Order): Promise<StaffUser | null> {
    requireStaff(ctx.actor, 'Order.assignee');
    return order.assignee ? ctx.em.findOneOrFail(StaffUser, { id: order.assignee.id }) : null;
  }

  /** Oldest first, as a conversation reads. */
  async notes(ctx: Ctx, orderId: string): Promise<OrderNote[]> {
    requireStaff(ctx.actor, 'Order.notes');
    return ctx.em.find(OrderNote, { order: orderId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  async notarization(ctx: Ctx, orderId: string): Promise<Notarization | null> {
    requireStaff(ctx.actor, 'Order.notarization');
    return ctx.em.findOne(Notarization, { order: orderId });
  }
}
