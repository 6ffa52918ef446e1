import { requireStaff } from '../identity/guards';
import { Desk } from '../desk/desk';
import type { Ctx } from '../identity/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isId } from '../shared/ids';
import { assignedOrdersOnly } from '../identity/staff-permissions';
import { StaffUser } from '../identity/staff-user.entity';
import { type AssignOrder, NO_ACTIVE_STAFF_USER } from './order.commands';
import { OrderNote } from './order-note.entity';
import { Order, type OrderStatus } from './order.entity';
import type { OrderLifecycle } from './order.lifecycle';

/**
 * The staff desk around an order (D19, D21, D28): the shared desk (look-up, account, notes), who works on it and its
 * notarization. A translator sees only the orders assigned to them. Audited.
 */
export class OrderDeskService extends Desk<OrderStatus, Order, OrderNote> {
  constructor(private readonly deps: { lifecycle: OrderLifecycle }) {
    super({
      entity: Order,
      lifecycle: deps.lifecycle,
      notes: {
        entity: OrderNote,
        of: (orderIds) => ({ order: { $in: [...orderIds] } }),
        rowOf: (note) => note.order.id,
        create: (em, order, author, text) => em.create(OrderNote, { order, author, text }),
      },
      operations: { get: 'staffOrder', account: 'Order.account', notes: 'Order.notes', addNote: 'addOrderNote' },
      populate: ['account', 'assignee'],
      visibleTo: (order, staff) => !assignedOrdersOnly(staff.role) || order.assignee?.id === staff.id,
    });
  }

  /** Assigns the order to an active staff member, or unassigns it (`staff_user_id` null). */
  async assign(ctx: Ctx, orderId: unknown, { staffUserId: assigneeId }: AssignOrder): Promise<Order> {
    requireStaff(ctx.actor, 'assignOrder');
    if (!isId(orderId)) throw new NotFoundError();
    return this.change(ctx, orderId, async (em, order) => {
      const assignee = assigneeId ? await em.findOne(StaffUser, { id: assigneeId, deactivatedAt: null }) : null;
      if (assigneeId && !assignee) throw ValidationError.of('staff_user_id', NO_ACTIVE_STAFF_USER);
      const before = order.assignee?.id ?? null;
      order.assignee = assignee;
      await em.flush();
      await this.deps.lifecycle.record(
        em,
        order,
        order.status,
        { actor: ctx.actor, action: 'assign' },
        { from_assignee_id: before, assignee_id: assignee?.id ?? null },
      );
    });
  }

  /** The staff member the order is assigned to, if any; loaded with the order by the look-up and the list, as its account is. */
  async assignee(ctx: Ctx, order: Pick<Order, 'assignee'>): Promise<StaffUser | null> {
    requireStaff(ctx.actor, 'Order.assignee');
    return order.assignee ? ctx.em.findOneOrFail(StaffUser, { id: order.assignee.id }) : null;
  }
}
