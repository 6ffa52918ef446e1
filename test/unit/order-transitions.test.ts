import { Order, OrderStatus } from '../../src/domain/orders/order.entity';
import { FINISHED_ORDER_STATUSES, orderTransitions, type OrderAction } from '../../src/domain/orders/order.states';
import { ShippingAddress } from '../../src/domain/quotes/shipping-address';
import { CLIENT, everyPair, reachable, STAFF, SYSTEM } from '../helpers/transitions';

const { PENDING_PAYMENT, PROCESSING, IN_REVIEW, COMPLETED, ON_HOLD, CANCELLED } = OrderStatus;
const order = (status: OrderStatus, fields: Partial<Order> = {}) => Object.assign(new Order(), { status, ...fields });
const address = Object.assign(new ShippingAddress(), {
  name: 'Ana Ruiz',
  line1: '1 Main St',
  line2: null,
  city: 'Austin',
  region: 'TX',
  postalCode: '78701',
  country: 'US',
});

/** The Order statuses and D10, written out here so that a change to the table has to change this list too. */
const MOVES = [
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
] as const;

describe('the order transition table', () => {
  it('has every order status, starts in pending_payment and reaches every status from there', () => {
    expect([...orderTransitions.states].sort()).toEqual(Object.values(OrderStatus).sort());
    expect(orderTransitions.initial).toBe(PENDING_PAYMENT);
    expect(reachable(orderTransitions).sort()).toEqual(Object.values(OrderStatus).sort());
  });

  it.each(everyPair(orderTransitions, MOVES))('$from -> $to is allowed: $allowed', ({ from, to, allowed }) => {
    expect(orderTransitions.allows(from, to)).toBe(allowed);
    const refusal = orderTransitions.refusal(from, to, order(from), SYSTEM, 'move the order');
    expect(refusal).toBe(allowed ? undefined : `Cannot move the order while the status is ${from}.`);
  });

  it('calls completed and cancelled finished: the statuses with no way out', () => {
    expect([...FINISHED_ORDER_STATUSES].sort()).toEqual([CANCELLED, COMPLETED]);
  });
});

describe("the order table's guard", () => {
  it.each([
    [PENDING_PAYMENT, undefined],
    [ON_HOLD, undefined],
    [PROCESSING, 'Cannot cancel the order while the status is processing.'],
    [IN_REVIEW, 'Cannot cancel the order while the status is in_review.'],
  ])('lets a client cancel from %s only before the work starts, or while held (cancelOrder): %s', (from, refusal) => {
    expect(orderTransitions.refusal(from, CANCELLED, order(from), CLIENT, 'cancel the order')).toBe(refusal);
  });

  it.each([PENDING_PAYMENT, PROCESSING, IN_REVIEW, ON_HOLD])('lets staff cancel from %s (D10)', (from) => {
    expect(orderTransitions.refusal(from, CANCELLED, order(from), STAFF, 'cancel the order')).toBeUndefined();
  });

  it('lets only the pipeline complete from processing; staff and clients complete nothing they have not reviewed', () => {
    expect(
      orderTransitions.refusal(PROCESSING, COMPLETED, order(PROCESSING), SYSTEM, 'finish the translation'),
    ).toBeUndefined();
    for (const by of [STAFF, CLIENT]) {
      expect(orderTransitions.refusal(PROCESSING, COMPLETED, order(PROCESSING), by, 'complete the order')).toBe(
        'Cannot complete the order while the status is processing.',
      );
    }
    expect(
      orderTransitions.refusal(IN_REVIEW, COMPLETED, order(IN_REVIEW), STAFF, 'complete the order'),
    ).toBeUndefined();
  });

  it('refuses nothing else the table allows, whoever asks', () => {
    const guarded = (from: OrderStatus, to: OrderStatus) =>
      to === CANCELLED || (from === PROCESSING && to === COMPLETED);
    for (const [from, to] of MOVES.filter(([from, to]) => !guarded(from, to))) {
      for (const by of [CLIENT, STAFF, SYSTEM])
        expect(orderTransitions.refusal(from, to, order(from), by, 'move the order')).toBeUndefined();
    }
  });
});

describe("the order table's actions", () => {
  const refusalsIn = (action: OrderAction, fields: Partial<Order> = {}) =>
    Object.fromEntries(
      Object.values(OrderStatus).map((status) => [
        status,
        orderTransitions.actionRefusal(action, order(status, fields)),
      ]),
    );

  it.each([
    ['attach_reviewed_translation', 'attach a translation'],
    ['approve_translation', 'approve a translation'],
    ['record_notarization', 'record a notarization'],
  ] as const)('allows %s in review and on hold only (D19)', (action, describe) => {
    expect(refusalsIn(action)).toEqual({
      [PENDING_PAYMENT]: `Cannot ${describe} while the status is pending_payment.`,
      [PROCESSING]: `Cannot ${describe} while the status is processing.`,
      [IN_REVIEW]: undefined,
      [COMPLETED]: `Cannot ${describe} while the status is completed.`,
      [ON_HOLD]: undefined,
      [CANCELLED]: `Cannot ${describe} while the status is cancelled.`,
    });
  });

  it('lets a translator attach in processing while a certified scan waits for them (D30)', () => {
    expect(refusalsIn('attach_reviewed_translation', { awaitingTranslator: true })).toEqual({
      [PENDING_PAYMENT]: 'Cannot attach a translation while the status is pending_payment.',
      [PROCESSING]: undefined,
      [IN_REVIEW]: undefined,
      [COMPLETED]: 'Cannot attach a translation while the status is completed.',
      [ON_HOLD]: undefined,
      [CANCELLED]: 'Cannot attach a translation while the status is cancelled.',
    });
  });

  it('takes a shipping address in every status but cancelled, until the hard copies ship (D22)', () => {
    expect(refusalsIn('set_shipping_address')).toEqual({
      [PENDING_PAYMENT]: undefined,
      [PROCESSING]: undefined,
      [IN_REVIEW]: undefined,
      [COMPLETED]: undefined,
      [ON_HOLD]: undefined,
      [CANCELLED]: 'Cannot set the shipping address while the status is cancelled.',
    });
    expect(orderTransitions.actionRefusal('set_shipping_address', order(COMPLETED, { shippedAt: new Date() }))).toEqual(
      {
        field: 'shipment',
        message: 'The hard copies have already shipped; contact us to redirect them.',
      },
    );
  });

  it('ships the hard copies of a completed order only, to the address the client gave (D22)', () => {
    expect(refusalsIn('ship', { shippingAddress: address })).toEqual({
      [PENDING_PAYMENT]: 'Cannot ship the order while the status is pending_payment.',
      [PROCESSING]: 'Cannot ship the order while the status is processing.',
      [IN_REVIEW]: 'Cannot ship the order while the status is in_review.',
      [COMPLETED]: undefined,
      [ON_HOLD]: 'Cannot ship the order while the status is on_hold.',
      [CANCELLED]: 'Cannot ship the order while the status is cancelled.',
    });
    expect(orderTransitions.actionRefusal('ship', order(COMPLETED))).toEqual({
      field: 'shipping_address',
      message: 'The client has not given a shipping address yet.',
    });
  });
});
