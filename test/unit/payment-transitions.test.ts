import { Payment, PaymentStatus } from '../../src/domain/payments/payment.entity';
import { paymentTransitions, type PaymentAction } from '../../src/domain/payments/payment.states';
import { everyPair, reachable, SYSTEM } from '../helpers/transitions';

const { CREATED, CAPTURING, CAPTURED, REFUNDING, REFUNDED, REFUND_REFUSED, VOIDED } = PaymentStatus;
const payment = (status: PaymentStatus) => Object.assign(new Payment(), { status });

/** D26, written out here so that a change to the table has to change this list too. */
const MOVES = [
  [CREATED, CAPTURING],
  [CREATED, CAPTURED],
  [CREATED, VOIDED],
  [CAPTURING, CREATED],
  [CAPTURING, CAPTURED],
  [CAPTURED, REFUNDING],
  [CAPTURED, REFUNDED],
  [REFUNDING, REFUNDED],
  [REFUNDING, REFUND_REFUSED],
  [REFUND_REFUSED, REFUNDED],
  [VOIDED, CAPTURED],
] as const;

describe('the payment transition table', () => {
  it('has every payment status, starts in created and reaches every status from there', () => {
    expect([...paymentTransitions.states].sort()).toEqual(Object.values(PaymentStatus).sort());
    expect(paymentTransitions.initial).toBe(CREATED);
    expect(reachable(paymentTransitions).sort()).toEqual(Object.values(PaymentStatus).sort());
    expect(paymentTransitions.terminal).toEqual([REFUNDED]);
  });

  it.each(everyPair(paymentTransitions, MOVES))(
    '$from -> $to is allowed: $allowed (no guard)',
    ({ from, to, allowed }) => {
      expect(paymentTransitions.allows(from, to)).toBe(allowed);
      const refusal = paymentTransitions.refusal(from, to, payment(from), SYSTEM, 'change the payment');
      expect(refusal).toBe(allowed ? undefined : `Cannot change the payment while the status is ${from}.`);
    },
  );
});

describe("the payment table's actions (D26, D29)", () => {
  const refusalsIn = (action: PaymentAction) =>
    Object.fromEntries(
      Object.values(PaymentStatus).map((status) => [status, paymentTransitions.actionRefusal(action, payment(status))]),
    );

  it('lets its holder be cancelled in every state but while a capture is under way', () => {
    expect(refusalsIn('cancel')).toEqual({
      [CREATED]: undefined,
      [CAPTURING]: 'The payment is being processed.',
      [CAPTURED]: undefined,
      [REFUNDING]: undefined,
      [REFUNDED]: undefined,
      [REFUND_REFUSED]: undefined,
      [VOIDED]: undefined,
    });
  });

  it('renews only an open checkout, and waits for a capture under way', () => {
    const closed = { field: 'payment', message: 'The checkout can no longer be renewed.' };
    expect(refusalsIn('renew')).toEqual({
      [CREATED]: undefined,
      [CAPTURING]: 'The payment is being processed.',
      [CAPTURED]: closed,
      [REFUNDING]: closed,
      [REFUNDED]: closed,
      [REFUND_REFUSED]: closed,
      [VOIDED]: closed,
    });
  });
});
