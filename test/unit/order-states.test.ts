import { OrderStatus } from '../../src/domain/orders/order.entity';
import { CLIENT_CANCELLABLE, orderTransitions } from '../../src/domain/orders/order.states';
import { assertTransition, canTransition } from '../../src/domain/shared/state-machine';

const { PENDING_PAYMENT, PROCESSING, IN_REVIEW, COMPLETED, ON_HOLD, CANCELLED } = OrderStatus;

/** Contract 3.1 and D10, written out pair by pair: every move not listed here is refused. */
const allowed: [OrderStatus, OrderStatus][] = [
  [PENDING_PAYMENT, PROCESSING],
  [PENDING_PAYMENT, ON_HOLD],
  [PENDING_PAYMENT, CANCELLED],
  [PROCESSING, IN_REVIEW],
  [PROCESSING, COMPLETED],
  [PROCESSING, ON_HOLD],
  [PROCESSING, CANCELLED],
  [IN_REVIEW, COMPLETED],
  [IN_REVIEW, ON_HOLD],
  [IN_REVIEW, CANCELLED],
  [ON_HOLD, PENDING_PAYMENT],
  [ON_HOLD, PROCESSING],
  [ON_HOLD, IN_REVIEW],
  [ON_HOLD, CANCELLED],
];

const all = Object.values(OrderStatus);
const pairs = all.flatMap((from) => all.map((to) => [from, to] as [OrderStatus, OrderStatus]));

describe('order transition table', () => {
  it.each(pairs)('%s -> %s', (from, to) => {
    const expected = allowed.some(([a, b]) => a === from && b === to);
    expect(canTransition(orderTransitions, from, to)).toBe(expected);
    if (!expected) expect(() => assertTransition(orderTransitions, from, to, 'move the order')).toThrow(`Cannot move the order while the status is ${from}.`);
  });

  it('lets clients cancel only from pending_payment and on_hold (contract 4.12)', () => {
    expect([...CLIENT_CANCELLABLE].sort()).toEqual([ON_HOLD, PENDING_PAYMENT].sort());
  });

  it('ends in completed and cancelled', () => {
    expect(orderTransitions[COMPLETED]).toEqual([]);
    expect(orderTransitions[CANCELLED]).toEqual([]);
  });
});
