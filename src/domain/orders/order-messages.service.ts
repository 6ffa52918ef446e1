import type { EntityManager } from '@mikro-orm/core';
import { NotFoundError } from '../../shared/errors';
import { readMessagePages, type MessageReader } from './order-message-pages.queries';
import type { Actor, Ctx } from '../identity/context';
import { requireAccount, requireAccountId, requireStaff } from '../identity/guards';
import { assignedOrdersOnly, requireAssigned } from '../identity/staff-permissions';
import type { EventHub } from '../shared/event-hub';
import { isId } from '../shared/ids';
import { paginate, pageRequest, type Page } from '../shared/pagination';
import type { ListOrderMessages, PostOrderMessage, PostStaffOrderMessage } from './order-message.commands';
import { MessageAuthorKind, OrderMessage } from './order-message.entity';
import { Order, OrderStatus } from './order.entity';
import type { OrderLifecycle } from './order.lifecycle';
import { AWAITING_CLIENT } from './order.states';
import type { OrderActivity } from './order-activity';

/**
 * An order's conversation between the client and the desk (D30): both sides read it a page at a time and write to
 * it, each message raised to be e-mailed to the other side. Staff may ask and wait (`waitForClient`): the order goes
 * on hold `awaiting_client` until the client's next message releases it. A message is written with the order locked,
 * as every lifecycle change is (D26), so a reply racing a staff release or cancel sees the state the other left.
 */
export class OrderMessageService {
  constructor(private readonly deps: { lifecycle: OrderLifecycle; events: EventHub<OrderActivity> }) {}

  /** One of the caller's orders' conversation, newest first (D3); another account's order is 404. */
  async list(ctx: Ctx, orderId: unknown, command: ListOrderMessages): Promise<Page<OrderMessage>> {
    const accountId = requireAccountId(ctx.actor, 'orders.read');
    if (!isId(orderId) || !(await ctx.em.count(Order, { id: orderId, account: accountId }))) throw new NotFoundError();
    return paginate(ctx.em, OrderMessage, { order: orderId }, pageRequest(command), {
      orderBy: { createdAt: 'desc', id: 'desc' },
    });
  }

  /** The same page of each of `orderIds`' conversations, in one statement (`Order.messages` of a page of orders). */
  pagesOf(ctx: Ctx, orderIds: readonly string[], command: ListOrderMessages): Promise<Page<OrderMessage>[]> {
    return readMessagePages(ctx.em, orderIds, readerOf(ctx.actor), pageRequest(command));
  }

  /**
   * The client writes to the desk (a viewer may not). When the order was waiting for them (`awaiting_client`), this
   * releases it to the state it was held from, audited; a hold for any other reason stays for staff to release.
   */
  async post(ctx: Ctx, orderId: unknown, { text }: PostOrderMessage): Promise<OrderMessage> {
    const account = requireAccount(ctx.actor, 'orders.message');
    if (!isId(orderId)) throw new NotFoundError();
    const authorName = (ctx.actor?.kind === 'account' && ctx.actor.member?.name) || account.name;
    let message!: OrderMessage;
    await this.deps.lifecycle.change(ctx.em, { id: orderId, account: account.id }, async (em, order) => {
      message = await this.write(em, ctx.actor, order, { kind: MessageAuthorKind.CLIENT, name: authorName }, text);
      const released = order.status === OrderStatus.ON_HOLD && order.holdReason === AWAITING_CLIENT;
      if (released)
        await this.deps.lifecycle.release(em, order, {
          actor: ctx.actor,
          action: 'release',
          reason: 'The client answered.',
        });
      await this.deps.events.raise(em, {
        kind: 'client_wrote',
        order,
        message,
        accountName: account.name,
        released: released ? order.status : null,
      });
      await em.flush();
    });
    return message;
  }

  /**
   * Staff write to the client: the desk on any order, a translator on their own assignments (D28). With
   * `waitForClient` the order is put on hold `awaiting_client` (refused, with nothing written, where a hold is not
   * allowed); an order already on hold waits for the client from then on.
   */
  async postAsStaff(ctx: Ctx, orderId: unknown, { text, waitForClient }: PostStaffOrderMessage): Promise<OrderMessage> {
    const staff = requireStaff(ctx.actor, 'postStaffOrderMessage');
    if (!isId(orderId)) throw new NotFoundError();
    let message!: OrderMessage;
    await this.deps.lifecycle.change(ctx.em, { id: orderId }, async (em, order) => {
      requireAssigned(staff, order.assignee?.id);
      if (waitForClient) await this.waitForClient(em, ctx.actor, order);
      message = await this.write(em, ctx.actor, order, { kind: MessageAuthorKind.STAFF, name: staff.name }, text);
      await this.deps.events.raise(em, { kind: 'staff_wrote', order, message, waitsForClient: waitForClient === true });
      await em.flush();
    });
    return message;
  }

  private async write(
    em: EntityManager,
    actor: Actor | null,
    order: Order,
    author: { kind: MessageAuthorKind; name: string },
    text: string,
  ): Promise<OrderMessage> {
    const message = em.create(OrderMessage, {
      order,
      authorKind: author.kind,
      authorName: author.name,
      text,
    });
    await this.deps.lifecycle.record(
      em,
      order,
      order.status,
      { actor, action: 'post_message' },
      { message_id: message.id },
    );
    return message;
  }

  /** On hold until the client answers; an order held already (for another reason) now waits for that answer. */
  private async waitForClient(em: EntityManager, actor: Actor | null, order: Order): Promise<void> {
    const cause = { actor, action: 'hold', reason: AWAITING_CLIENT };
    if (order.status !== OrderStatus.ON_HOLD) return this.deps.lifecycle.hold(em, order, cause);
    if (order.holdReason === AWAITING_CLIENT) return;
    order.holdReason = AWAITING_CLIENT;
    await this.deps.lifecycle.record(em, order, order.status, cause);
  }
}

/** Which orders' messages the caller reads: an account its own, a translator their assignments, the desk every one. */
function readerOf(actor: Actor | null): MessageReader {
  if (actor?.kind !== 'staff') return { accountId: requireAccountId(actor, 'orders.read'), assigneeId: null };
  const staff = requireStaff(actor);
  return { accountId: null, assigneeId: assignedOrdersOnly(staff.role) ? staff.id : null };
}
