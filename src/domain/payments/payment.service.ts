import { LockMode, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import type { PaymentEvent, PaymentProvider, RefundResult } from '../../providers/payment/payment-provider';
import type { Logger } from '../../shared/logger';
import type { AuditService } from '../audit/audit.service';
import { NotFoundError, ProviderUnavailableError, ValidationError } from '../../shared/errors';
import type { Lifecycle, MoveCause, Stateful } from '../lifecycle/lifecycle';
import { cannot, refused } from '../lifecycle/state-machine';
import { retryingTransaction } from '../shared/transaction';
import { isStorableText } from '../shared/field-readers';
import { isId, newId } from '../shared/ids';
import type { CheckoutSummary } from './checkout-summary';
import { formatMoney } from '../shared/money';
import { PaymentRefund } from './payment-refund.entity';
import { STAFF_REFUND_PREFIX, StaffRefund, StaffRefundStatus } from './staff-refund.entity';
import { Payment, PaymentStatus, type PaymentOwner } from './payment.entity';
import { paymentTransitions } from './payment.states';

/** The order or booking a payment belongs to, locked for the current transaction. */
export interface PaymentHolder {
  /** Still waiting for this payment (directly, or from a hold that interrupted the wait), and still payable. */
  readonly awaitingPayment: boolean;
  /** Why a holder that waits for payment can no longer be paid (a booking whose start passed, D29), for the payer; else null. */
  readonly closedReason: string | null;
  /** The money is captured: move on. */
  paid(em: EntityManager, payment: Payment): Promise<void>;
  /** Captured money went back to the payer at the provider (a reversal, a chargeback): staff must look. */
  reversed(em: EntityManager, payment: Payment, reason: string): Promise<void>;
  /** A capture landed after the holder was cancelled; the money is being refunded: tell the account. */
  refundingLateCapture(em: EntityManager, payment: Payment): Promise<void>;
  /** Our refund went through at the provider: tell the account how much came back (D28), and why when staff said (D30). */
  refunded(em: EntityManager, payment: Payment, amountCents: number, reason?: string): Promise<void>;
}

/**
 * Orders, or bookings, as what payments pay for (a payment names its owner): the owner locked as the holder of one of
 * its payments, and what that payment pays for. A payment its owner no longer holds (a renewed checkout's old one,
 * D29) has a former holder and no summary.
 */
export interface PaymentOwners {
  /**
   * The owner `id`, locked (before the payment, D26), as the holder of payment `paymentId`, or as its former holder when
   * a renewal replaced it (waiting for nothing, telling a late capture); null when the owner is gone.
   */
  lockHolder(em: EntityManager, id: string, paymentId: string): Promise<PaymentHolder | null>;
  /** What payment `paymentId` pays for, for the checkout page and the return redirect; null when its owner no longer holds it. */
  summarize(em: EntityManager, id: string, paymentId: string): Promise<CheckoutSummary | null>;
}

export type ConfirmOutcome = 'paid' | 'processing';

/** D31's check of a placement on account, made under the account's lock in the placing transaction. */
export interface AccountPlacement {
  assertRoom(em: EntityManager, payment: Payment): Promise<void>;
}

/** A refund to ask of the provider the payment was made with. */
interface RefundAsk {
  provider: string;
  captureId: string;
  currency: string;
  amountCents: number;
  requestId: string;
}

/** What a cancel keeps of a captured payment and gives back (a booking's cancellation fee, D32), with its audit. */
export interface CancelKept {
  settlement: NonNullable<MoveCause['settlement']>;
  details: Record<string, unknown>;
}

/** The terms of a cancel that may keep a fee: of `leftCents` still kept of the locked row's payment, what goes back. */
export type CancelKeeps<E = unknown> = (row: E, leftCents: number, currency: string) => CancelKept;

/** What a checkout is made for: its owner, the amount, the owner's number, what the payer reads, and where they return. */
export interface CheckoutRequest {
  owner: PaymentOwner;
  amountCents: number;
  currency: string;
  reference: string;
  description: string;
  redirectUrl: string | null;
}

/** A checkout made at its provider, with the id it was asked under: the fields of the payment that records it. */
export type StartedCheckout = Readonly<
  Pick<
    Payment,
    | 'id'
    | 'owner'
    | 'provider'
    | 'description'
    | 'amountCents'
    | 'currency'
    | 'redirectUrl'
    | 'providerOrderId'
    | 'approvalUrl'
  >
>;

/**
 * A new payment of `started`, made in (and persisted by) the transaction attempt that records it. Its owner is set
 * through `Payment.owner`, which em.create's data does not reach (it is no column).
 */
export function paymentOf(em: EntityManager, { owner, ...started }: StartedCheckout): Payment {
  const payment = em.create(Payment, started);
  payment.owner = owner;
  return payment;
}

/** A provider call whose answer is lost (a crash, a timeout) is taken up again after this long (D26). */
const STALE_AFTER_MS = 60_000;

/**
 * Payments and their reconciliation (D9, D26). Every step locks the holder, then the payment (one lock order
 * everywhere), and never calls the provider while holding a lock: the intent (capturing, refunding) is
 * committed first, the provider is called, and its answer is applied in a new transaction. Capture and refund
 * are idempotent at the provider, so a lost answer is fixed by asking again: on the next confirmation, or by
 * `reconcile`, which workers run periodically.
 */
export class PaymentService {
  constructor(
    /** The card provider of this deployment: checkouts, return links and webhooks. */
    readonly provider: PaymentProvider,
    private readonly deps: {
      audit: AuditService;
      logger: Logger;
      owners: Record<PaymentOwner['type'], PaymentOwners>;
      /** Work placed on account (D31): the placement page and the invoice stand in for a provider. */
      onAccount: PaymentProvider;
      /** Refuses (422 `terms`) a placement on account past the credit limit or with an invoice overdue (D31). */
      placement: AccountPlacement;
    },
  ) {}

  /** Whether a payment is work on account (D31), not a card checkout. */
  isOnAccount(payment: Pick<Payment, 'provider'>): boolean {
    return payment.provider === this.deps.onAccount.name;
  }

  /**
   * A new payment's hosted checkout, or (`onAccount`) its placement page (D31), made at the provider before any
   * transaction (D26). What it answers is not yet a row: each attempt of the caller's transaction makes its payment of
   * it (`paymentOf`), so an attempt retried after a deadlock never reuses an entity the failed one had persisted.
   */
  async startCheckout(
    input: CheckoutRequest,
    { onAccount = false }: { onAccount?: boolean } = {},
  ): Promise<StartedCheckout> {
    const provider = onAccount ? this.deps.onAccount : this.provider;
    const id = newId();
    const checkout = await provider.createCheckout({
      requestId: id,
      reference: input.reference,
      description: input.description,
      amountCents: input.amountCents,
      currency: input.currency,
    });
    return {
      id,
      owner: input.owner,
      provider: provider.name,
      description: input.description,
      amountCents: input.amountCents,
      currency: input.currency,
      redirectUrl: input.redirectUrl,
      providerOrderId: checkout.providerOrderId,
      approvalUrl: checkout.approvalUrl,
    };
  }

  /**
   * Places a new payment on account at once (D31), in the transaction that made it (flushed): checked under the
   * account's lock (422 `terms`) and left capturing, so every later check counts it; `confirm` then captures it.
   */
  async reserveOnAccount(em: EntityManager, payment: Payment): Promise<void> {
    await this.deps.placement.assertRoom(em, payment);
    this.move(em, payment, PaymentStatus.CAPTURING);
  }

  /**
   * Places a new payment on account that is owed whatever the credit check would say (a booking's overtime: the time
   * was given, D32), in the transaction that made it: left capturing, so every later check counts it; `confirm` then
   * captures it, and the next close invoices it.
   */
  placeOwedOnAccount(em: EntityManager, payment: Payment): void {
    if (!this.isOnAccount(payment)) throw new Error('Only work on account is placed without a checkout.');
    this.move(em, payment, PaymentStatus.CAPTURING);
  }

  /** What `payment` pays for: the order's or booking's lines and id. */
  summarize(em: EntityManager, payment: Payment): Promise<CheckoutSummary | null> {
    const { type, id } = payment.owner;
    return this.deps.owners[type].summarize(em, id, payment.id);
  }

  async findByProviderOrderId(em: EntityManager, providerOrderId: string): Promise<Payment> {
    // A checkout id comes from a URL (the sandbox page, PayPal's return): text PostgreSQL refuses matches nothing (D25).
    if (!isStorableText(providerOrderId)) throw new NotFoundError();
    const payment = await em.findOne(Payment, { providerOrderId });
    if (!payment) throw new NotFoundError();
    return payment;
  }

  /**
   * The payer approved (the return link, the approval webhook, the sandbox Pay button): capture once. Answers
   * `processing` while another path's capture is under way; refuses (422 `payment`) a declined or closed checkout.
   */
  async confirm(em: EntityManager, providerOrderId: string): Promise<{ payment: Payment; outcome: ConfirmOutcome }> {
    const { id } = await this.findByProviderOrderId(em, providerOrderId);
    const step = await this.locked(em, id, async (tx, payment, holder) => {
      if (payment.status === PaymentStatus.CAPTURED) return 'settled' as const;
      if (isSettled(payment)) throw closed(); // refunded: the holder was cancelled
      if (payment.status === PaymentStatus.CAPTURING && !isStale(payment)) return 'busy' as const;
      if (payment.status === PaymentStatus.VOIDED || !holder?.awaitingPayment) throw closed(holder?.closedReason);
      // On account, the placement is checked under the account's lock: what it counts includes this payment from here on.
      if (payment.status === PaymentStatus.CREATED && this.isOnAccount(payment))
        await this.deps.placement.assertRoom(tx, payment);
      if (payment.status === PaymentStatus.CREATED) this.move(tx, payment, PaymentStatus.CAPTURING);
      payment.inFlightSince = new Date();
      return 'capture' as const;
    });
    if (step === 'busy') return { payment: await this.reload(em, id), outcome: 'processing' };
    if (step === 'capture') await this.capture(em, id);
    const payment = await this.reload(em, id);
    return { payment, outcome: payment.status === PaymentStatus.CAPTURED ? 'paid' : 'processing' };
  }

  /**
   * Cancels an order or a booking with its payment settled (D26): in one transaction the row, then its payment, are
   * locked, the cancel is checked against the row's table (its guard says who may cancel what), the payment is voided
   * or marked for refund and the row moves to cancelled; the refund or void goes to the provider after the commit.
   */
  async cancelHolder<S extends string, E extends Stateful<S> & { payment: { id: string } | null }>(
    em: EntityManager,
    lifecycle: Lifecycle<S, E>,
    id: string,
    cause: MoveCause,
    keep?: CancelKeeps<E>,
  ): Promise<E> {
    const after: { payment: Payment | null; partRefund: StaffRefund | null } = { payment: null, partRefund: null };
    const row = await lifecycle.change(em, { id } as FilterQuery<E>, async (tx, locked) => {
      lifecycle.check(locked, lifecycle.cancelledState, cause);
      const terms = keep && ((left: number, currency: string) => keep(locked, left, currency));
      const settled = await this.cancelInLock(tx, locked.payment, cause, terms);
      Object.assign(after, settled);
      await lifecycle.cancel(tx, locked, settled.kept ? { ...cause, settlement: settled.kept.settlement } : cause);
      if (settled.kept)
        await lifecycle.record(
          tx,
          locked,
          locked.status,
          { ...cause, action: 'cancellation_fee' },
          settled.kept.details,
        );
    });
    const { payment, partRefund } = after;
    await this.settle(em, payment);
    if (payment && partRefund) await this.askStaffRefund(em, payment.id, partRefund.id, { fresh: true });
    return row;
  }

  /**
   * D30: staff give back `amountCents` of what an order or a booking captured, which keeps its state. In one transaction
   * the row, then its payment, are locked (D26's order), the amount is checked against what is left (captured less
   * refunded, less refunds asked and not answered yet) and held back, and the decision is audited on the row; after the
   * commit the provider is asked for that amount and its answer applied: counted and e-mailed with the reason, or
   * refused (422 `amount_cents`) with nothing counted. An answer lost on the way is asked again by `reconcile`, as the
   * same refund at the provider; until then the amount stays held back. `paymentOf` names which of the row's payments
   * is refunded: its own by default, a booking's overtime when staff say so (D32).
   */
  async refundHolder<S extends string, E extends Stateful<S> & { payment: { id: string } | null }>(
    em: EntityManager,
    lifecycle: Lifecycle<S, E>,
    id: string,
    spec: { amountCents: number; reason: string },
    actor: MoveCause['actor'],
    paymentOf: (row: E) => { id: string } | null = (row) => row.payment,
  ): Promise<E> {
    let asked: StaffRefund | null = null;
    let refunded: string | null = null;
    const row = await lifecycle.change(em, { id } as FilterQuery<E>, async (tx, locked) => {
      const chosen = paymentOf(locked);
      const payment =
        chosen &&
        (await tx.findOneOrFail(Payment, { id: chosen.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }));
      if (!payment || !isSettled(payment))
        throw ValidationError.of('payment', 'Nothing has been paid, so nothing can be refunded.');
      const left = refundableCents(payment);
      if (spec.amountCents > left)
        throw ValidationError.of(
          'amount_cents',
          left === 0
            ? 'Nothing is left to refund.'
            : `At most ${left} cents (${formatMoney(left, payment.currency)}) is left to refund.`,
        );
      asked = this.holdBackRefund(tx, payment, spec.amountCents, spec.reason);
      refunded = payment.id;
      await lifecycle.record(
        tx,
        locked,
        locked.status,
        { actor, action: 'refund', reason: spec.reason },
        {
          payment_id: payment.id,
          refund_id: asked.id,
          amount_cents: spec.amountCents,
        },
      );
    });
    const answered = await this.askStaffRefund(em, refunded!, asked!.id, { fresh: true });
    if (answered?.status === StaffRefundStatus.REFUSED)
      throw ValidationError.of('amount_cents', `The payment provider did not make the refund: ${answered.refusal}`);
    return row;
  }

  /**
   * A fresh checkout for an unpaid order or booking (`current`, as read before any lock) in place of its open one (D29):
   * only while it waits for payment (or on hold from it) and its table would let a payment move it on (422 otherwise).
   * The checkout is made at the provider first; then in one transaction the row, then its payment, are locked, checked
   * again, the old checkout is voided and the new one attached, audited; the old one is withdrawn at the provider after
   * the commit. While a capture is under way the renewal is refused (422 `status`, as a cancel is), so a payment racing
   * it is taken once: on the old checkout before the renewal, or on the new one after it, never on both.
   */
  async renewCheckout<S extends string, E extends Stateful<S> & { payment: Payment | null }>(
    em: EntityManager,
    lifecycle: Lifecycle<S, E>,
    current: E,
    spec: { checkout: CheckoutRequest; cause: MoveCause },
  ): Promise<E> {
    const { checkout, cause } = spec;
    const renewable = (row: E) => {
      if (!lifecycle.awaitsPayment(row)) throw refused(cannot('renew the checkout', row.status));
      const refusal = lifecycle.paymentRefusal(row);
      if (refusal !== undefined) throw refused(refusal);
    };
    renewable(current);
    const started = await this.startCheckout(checkout);
    let old: Payment | null = null;
    const row = await lifecycle.change(em, { id: current.id } as FilterQuery<E>, async (tx, locked) => {
      renewable(locked);
      const fresh = paymentOf(tx, started);
      old =
        locked.payment &&
        (await tx.findOneOrFail(
          Payment,
          { id: locked.payment.id },
          { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        ));
      if (old) {
        paymentTransitions.assertAction('renew', old);
        this.move(tx, old, PaymentStatus.VOIDED, { replaced_by: started.id });
      }
      locked.payment = fresh;
      tx.persist(fresh);
      await lifecycle.record(tx, locked, locked.status, cause, {
        payment_id: fresh.id,
        replaced_payment_id: old?.id ?? null,
      });
    });
    await this.settle(em, old);
    return row;
  }

  /**
   * D31: an order or a booking waiting on its placement page that cannot be placed on account (the credit limit, an
   * overdue invoice) is paid by card instead: its payment on account is renewed at the card provider as any checkout
   * is (`renewCheckout`, audited `pay_by_card`), the payer returning where the placement would have sent them; answers
   * the new payment. 422 `payment` when the placement is no longer its holder's open payment.
   */
  async payByCard<S extends string, E extends Stateful<S> & { payment: Payment | null }>(
    em: EntityManager,
    lifecycle: Lifecycle<S, E>,
    providerOrderId: string,
    checkoutOf: (current: E, redirectUrl: string | null) => CheckoutRequest,
  ): Promise<Payment> {
    const placement = await this.findByProviderOrderId(em, providerOrderId);
    const current =
      this.isOnAccount(placement) &&
      (await lifecycle.read(em, { id: placement.owner.id, payment: placement.id } as FilterQuery<E>));
    if (!current) throw ValidationError.of('payment', 'This checkout can no longer be paid.');
    const renewed = await this.renewCheckout(em, lifecycle, current, {
      checkout: checkoutOf(current, placement.redirectUrl),
      cause: { actor: null, action: 'pay_by_card' },
    });
    return renewed.payment!;
  }

  /**
   * Inside the holder's cancelling transaction (holder locked first, then its payment here): an open checkout is
   * voided, a captured payment is marked for refund. While a capture is under way the cancel is refused (D26).
   * Answers the payment for `settle` after the transaction commits; null when the holder has none yet.
   */
  private async cancelInLock(
    em: EntityManager,
    ref: { id: string } | null,
    cause: MoveCause,
    keep?: (leftCents: number, currency: string) => CancelKept,
  ): Promise<{ payment: Payment | null; partRefund: StaffRefund | null; kept: CancelKept | null }> {
    if (!ref) return { payment: null, partRefund: null, kept: null };
    const payment = await em.findOneOrFail(
      Payment,
      { id: ref.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    paymentTransitions.assertAction('cancel', payment);
    let partRefund: StaffRefund | null = null;
    let kept: CancelKept | null = null;
    if (payment.status === PaymentStatus.CREATED) this.move(em, payment, PaymentStatus.VOIDED);
    // A payment that kept nothing (a free revision's, D30) has nothing to give back: it stays as it is.
    else if (payment.status === PaymentStatus.CAPTURED && payment.capturedCents > payment.refundedCents) {
      const left = refundableCents(payment);
      kept = keep?.(left, payment.currency) ?? null;
      const refundCents = kept ? kept.settlement.refundCents : left;
      // All of it back: the refund a cancel always owed. Part of it: a refund in part, as staff's (D30), and the
      // payment stays captured with the fee kept.
      if (!kept || (refundCents === left && left > 0)) this.move(em, payment, PaymentStatus.REFUNDING);
      else if (refundCents > 0) partRefund = this.holdBackRefund(em, payment, refundCents, cause.reason ?? 'cancelled');
    }
    return { payment, partRefund, kept };
  }

  /** A refund in part, asked of the provider after the commit; until answered its amount is held back (D30). */
  private holdBackRefund(em: EntityManager, payment: Payment, amountCents: number, reason: string): StaffRefund {
    const refund = em.create(StaffRefund, { payment, amountCents, reason, inFlightSince: new Date() });
    payment.refundPendingCents += amountCents;
    return refund;
  }

  /** After a cancel commits: refund what is owed, withdraw a voided checkout at the provider (best effort). */
  private async settle(em: EntityManager, payment: Payment | null): Promise<void> {
    if (!payment) return;
    if (payment.status === PaymentStatus.REFUNDING) return this.refund(em, payment.id);
    if (payment.status === PaymentStatus.VOIDED && payment.providerOrderId) {
      await this.providerOf(payment)
        .void(payment.providerOrderId)
        .catch((error) =>
          this.deps.logger.warn({ err: error, payment_id: payment.id }, 'void failed; the checkout will expire'),
        );
    }
  }

  /** A verified webhook, after its event is recorded (D9): approvals capture, captures apply, reversals record and hold. */
  async applyEvent(em: EntityManager, event: Exclude<PaymentEvent, { kind: 'ignored' }>): Promise<void> {
    const payment = await em.findOne(
      Payment,
      event.providerOrderId === null ? { captureId: event.captureId } : { providerOrderId: event.providerOrderId },
    );
    if (!payment) return;
    if (event.kind === 'approved') await this.confirm(em, event.providerOrderId).catch(ignoreRefusal);
    else if (event.kind === 'captured')
      await this.applyCapture(em, payment.id, { status: 'completed', captureId: event.captureId });
    else await this.applyReversal(em, payment, event);
  }

  /** Takes up every capture or refund whose provider call was lost (a crash, an outage) more than a minute ago. */
  async reconcile(em: EntityManager): Promise<number> {
    const stuck = await em.fork().find(
      Payment,
      {
        status: { $in: [PaymentStatus.CAPTURING, PaymentStatus.REFUNDING] },
        $or: [{ inFlightSince: null }, { inFlightSince: { $lt: new Date(Date.now() - STALE_AFTER_MS) } }],
      },
      { limit: 100, orderBy: { updatedAt: 'asc' } },
    );
    const asked = await em.fork().find(
      StaffRefund,
      {
        status: StaffRefundStatus.PENDING,
        $or: [{ inFlightSince: null }, { inFlightSince: { $lt: new Date(Date.now() - STALE_AFTER_MS) } }],
      },
      { limit: 100, orderBy: { createdAt: 'asc' } },
    );
    const work = [
      ...stuck.map((payment) => ({
        paymentId: payment.id,
        run: () =>
          payment.status === PaymentStatus.CAPTURING ? this.retakeCapture(em, payment.id) : this.refund(em, payment.id),
      })),
      ...asked.map((refund) => ({
        paymentId: refund.payment.id,
        run: () => this.askStaffRefund(em, refund.payment.id, refund.id, { fresh: false }),
      })),
    ];
    for (const { paymentId, run } of work) {
      await run().catch((error) =>
        this.deps.logger.warn({ err: error, payment_id: paymentId }, 'payment reconciliation will try again'),
      );
    }
    return work.length;
  }

  private async retakeCapture(em: EntityManager, id: string): Promise<void> {
    const go = await this.locked(em, id, async (_tx, payment) => {
      if (payment.status !== PaymentStatus.CAPTURING || !isStale(payment)) return false;
      payment.inFlightSince = new Date();
      return true;
    });
    if (go) await this.capture(em, id);
  }

  /** The provider call of a committed `capturing` intent, then its answer applied. */
  private async capture(em: EntityManager, id: string): Promise<void> {
    const payment = await this.reload(em, id);
    let result;
    try {
      result = await this.providerOf(payment).capture(payment.providerOrderId!);
    } catch (error) {
      // The outcome is unknown (the capture may have happened): the payment stays capturing, so a cancel waits,
      // and the next confirmation or the reconciliation asks again. The payer is told it is being processed.
      if (!(error instanceof ProviderUnavailableError)) throw error;
      this.deps.logger.warn({ err: error, payment_id: id }, 'capture answer lost; it will be asked again');
      await this.locked(
        em,
        id,
        async (_tx, locked) => void (locked.status === PaymentStatus.CAPTURING && (locked.inFlightSince = null)),
      );
      return;
    }
    await this.applyCapture(em, id, result);
  }

  /**
   * The provider's answer to a capture. Declined: back to created (the payer may try again), 422. Completed:
   * the holder is paid, or, when it was cancelled meanwhile, the money is refunded at once (D26).
   */
  private async applyCapture(
    em: EntityManager,
    id: string,
    result: Awaited<ReturnType<PaymentProvider['capture']>>,
  ): Promise<void> {
    const next = await this.locked(em, id, async (tx, payment, holder) => {
      if (result.status === 'declined') {
        if (payment.status !== PaymentStatus.CAPTURING) return 'none' as const;
        this.move(tx, payment, PaymentStatus.CREATED);
        payment.inFlightSince = null;
        return 'declined' as const;
      }
      if (isSettled(payment)) return 'none' as const;
      this.move(tx, payment, PaymentStatus.CAPTURED);
      Object.assign(payment, {
        captureId: result.captureId,
        capturedCents: payment.amountCents,
        paidAt: new Date(),
        inFlightSince: null,
      });
      await tx.flush();
      if (holder?.awaitingPayment) {
        await holder.paid(tx, payment);
        return 'none' as const;
      }
      this.move(tx, payment, PaymentStatus.REFUNDING);
      await holder?.refundingLateCapture(tx, payment);
      return 'refund' as const;
    });
    if (next === 'declined') throw ValidationError.of('payment', 'The payment was declined.');
    if (next === 'refund') await this.refund(em, id);
  }

  /**
   * Money went back at the provider (a refund in its dashboard, a reversal): the refund the event names is counted
   * once by its id, and a paid holder is held for staff. An event that does not say how much in terms to trust is
   * settled by looking the capture up: all of it back, or nothing known yet (the refund's own event will say).
   * A refund of ours still owed then asks only for what is left.
   */
  private async applyReversal(
    em: EntityManager,
    payment: Payment,
    event: Extract<PaymentEvent, { kind: 'reversed' }>,
  ): Promise<void> {
    let returned: Returned | null = event.refund?.currency === payment.currency ? event.refund : null;
    if (
      !returned &&
      payment.captureId &&
      (await this.providerOf(payment).lookupCapture(payment.captureId)).fullyRefunded
    )
      returned = ALL_LEFT;
    const owed = await this.locked(em, payment.id, async (tx, locked, holder) => {
      const was = locked.status;
      if (!REFUNDABLE.includes(was)) return false; // nothing captured, or all of it back already
      // A refund staff asked whose answer was lost: its event is that answer, not money gone back behind our back.
      const ours = returned === event.refund ? event.refund : null;
      const asked = await this.pendingStaffRefund(tx, locked, ours?.requestId);
      if (asked && ours) {
        await this.settleStaffRefund(tx, locked, holder, asked, { status: 'made', ...ours });
        return false;
      }
      const counted = returned !== null && (await this.recordRefund(tx, locked, returned));
      // A refund heard of again (its redelivery, our own refund's event) holds nothing twice.
      if ((counted || !returned) && was === PaymentStatus.CAPTURED) await holder?.reversed(tx, locked, event.reason);
      return counted && locked.status === PaymentStatus.REFUNDING;
    });
    if (owed) await this.refund(em, payment.id);
  }

  /**
   * The provider call of a committed `refunding` intent, for what is left (captured less refunded); on failure it
   * stays owed and `reconcile` asks again. One call at a time: a call under way (`inFlightSince`) is not doubled.
   */
  private async refund(em: EntityManager, id: string): Promise<void> {
    const ask = await this.locked(em, id, async (_tx, payment) => {
      if (payment.status !== PaymentStatus.REFUNDING || !isStale(payment)) return null;
      // Refunds staff asked and not answered yet settle their own part (D30): this asks for the rest.
      const { captureId, currency, capturedCents, refundedCents, refundPendingCents } = payment;
      if (capturedCents - refundedCents - refundPendingCents <= 0) return null;
      payment.inFlightSince = new Date();
      // What is refunded already is in the request id: the same books ask the same refund again after a lost answer.
      return {
        provider: payment.provider,
        captureId: captureId!,
        currency,
        amountCents: capturedCents - refundedCents - refundPendingCents,
        requestId: `refund-${captureId}-${refundedCents}`,
      };
    });
    if (!ask) return;
    let settlement: Settlement;
    try {
      settlement = await this.askRefund(ask);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      await this.locked(em, id, async (_tx, locked) => void (locked.inFlightSince = null));
      this.deps.logger.warn({ err: error, payment_id: id }, 'refund failed; it stays owed and will be tried again');
      return;
    }
    await this.locked(em, id, async (tx, locked, holder) => {
      locked.inFlightSince = null;
      if ('refused' in settlement) {
        if (locked.status === PaymentStatus.REFUNDING) this.refuseRefund(tx, locked, settlement.refused);
        return;
      }
      const before = locked.refundedCents;
      for (const returned of settlement) await this.recordRefund(tx, locked, returned);
      if (locked.refundedCents > before) await holder?.refunded(tx, locked, locked.refundedCents - before);
    });
  }

  /**
   * Asks the provider for the refund; when less is left there than asked (refunded at the provider meanwhile), the
   * capture is looked up: all of it back settles the refund, part of it asks for all that is left instead, which the
   * provider bounds by what it holds: never more than was captured goes back.
   */
  private async askRefund({ provider: name, ...ask }: RefundAsk): Promise<Settlement> {
    const provider = this.providerOf({ provider: name });
    const answer = await provider.refund(ask);
    if (answer.status !== 'too_much') return settled(answer);
    if ((await provider.lookupCapture(ask.captureId)).fullyRefunded) return [ALL_LEFT];
    const rest = await provider.refund({ ...ask, amountCents: null, requestId: `${ask.requestId}-rest` });
    return rest.status === 'too_much' ? [ALL_LEFT] : settled(rest, ALL_LEFT);
  }

  /**
   * The provider call of a refund staff asked (D30), by its amount and under its own request id, then its answer applied.
   * `fresh`: the call its own request makes; otherwise `reconcile` takes up a call whose answer was lost a minute ago.
   * Answers the refund as the answer left it (null when nothing was asked, or the answer was lost).
   */
  private async askStaffRefund(
    em: EntityManager,
    paymentId: string,
    refundId: string,
    { fresh }: { fresh: boolean },
  ): Promise<StaffRefund | null> {
    const ask = await this.locked(em, paymentId, async (tx, payment) => {
      const refund = await tx.findOneOrFail(StaffRefund, { id: refundId }, { refresh: true });
      if (refund.status !== StaffRefundStatus.PENDING || (!fresh && !isStale(refund))) return null;
      refund.inFlightSince = new Date();
      const { captureId, currency, provider } = payment;
      return {
        provider,
        captureId: captureId!,
        currency,
        amountCents: refund.amountCents,
        requestId: refund.requestId,
      };
    });
    if (!ask) return null;
    let answer: RefundResult;
    try {
      const { provider, ...request } = ask;
      answer = await this.providerOf({ provider }).refund(request);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      this.deps.logger.warn({ err: error, refund_id: refundId }, 'refund answer lost; it will be asked again');
      await this.locked(em, paymentId, async (tx) => {
        const refund = await tx.findOneOrFail(StaffRefund, { id: refundId }, { refresh: true });
        if (refund.status === StaffRefundStatus.PENDING) refund.inFlightSince = null;
      });
      return null;
    }
    return this.locked(em, paymentId, async (tx, payment, holder) => {
      const refund = await tx.findOneOrFail(StaffRefund, { id: refundId }, { refresh: true });
      if (refund.status === StaffRefundStatus.PENDING)
        await this.settleStaffRefund(tx, payment, holder, refund, answer);
      return refund;
    });
  }

  /** The staff refund a provider's request id names, while it waits for its answer (under the payment's lock). */
  private async pendingStaffRefund(
    tx: EntityManager,
    payment: Payment,
    requestId: string | null | undefined,
  ): Promise<StaffRefund | null> {
    const id = requestId?.startsWith(STAFF_REFUND_PREFIX) ? requestId.slice(STAFF_REFUND_PREFIX.length) : null;
    if (!isId(id)) return null;
    const refund = await tx.findOne(StaffRefund, { id, payment: payment.id }, { refresh: true });
    return refund?.status === StaffRefundStatus.PENDING ? refund : null;
  }

  /** A staff refund's answer applied: made (counted once, the client told why) or refused, never held back again. */
  private async settleStaffRefund(
    tx: EntityManager,
    payment: Payment,
    holder: PaymentHolder | null,
    refund: StaffRefund,
    answer: RefundResult,
  ): Promise<void> {
    payment.refundPendingCents -= refund.amountCents;
    refund.inFlightSince = null;
    if (answer.status !== 'made') {
      Object.assign(refund, { status: StaffRefundStatus.REFUSED, refusal: staffRefundRefusal(answer) });
      this.deps.audit.record(tx, null, {
        action: 'payment.staff_refund_refused',
        resourceType: 'payment',
        resourceId: payment.id,
        fromState: payment.status,
        toState: payment.status,
        details: { refund_id: refund.id, amount_cents: refund.amountCents, refusal: refund.refusal },
      });
      return;
    }
    Object.assign(refund, { status: StaffRefundStatus.MADE, providerRefundId: answer.refundId });
    const before = payment.refundedCents;
    await this.recordRefund(tx, payment, { refundId: answer.refundId, amountCents: answer.amountCents });
    if (payment.refundedCents > before)
      await holder?.refunded(tx, payment, payment.refundedCents - before, refund.reason);
  }

  /**
   * Counts money that went back, once per provider refund id, never past what was captured; all of it back moves
   * the payment to refunded. Answers false for a refund counted already.
   */
  private async recordRefund(em: EntityManager, payment: Payment, returned: Returned): Promise<boolean> {
    if (!REFUNDABLE.includes(payment.status)) return false;
    if (
      returned.refundId &&
      (await em.count(PaymentRefund, { payment: payment.id, providerRefundId: returned.refundId }))
    )
      return false;
    const left = payment.capturedCents - payment.refundedCents;
    const amountCents = Math.min(returned.amountCents ?? left, left);
    if (returned.amountCents !== null && returned.amountCents > left) {
      this.deps.logger.warn(
        { payment_id: payment.id, refund_id: returned.refundId, amount_cents: returned.amountCents, left_cents: left },
        'the provider refunded more than the books had left; counted up to what was captured',
      );
    }
    if (amountCents > 0 || returned.refundId)
      em.create(PaymentRefund, { payment, providerRefundId: returned.refundId, amountCents });
    payment.refundedCents += amountCents;
    if (payment.refundedCents === payment.capturedCents) this.markRefunded(em, payment);
    return true;
  }

  private markRefunded(em: EntityManager, payment: Payment): void {
    this.move(em, payment, PaymentStatus.REFUNDED);
    Object.assign(payment, { refundedAt: new Date(), inFlightSince: null });
  }

  /** Refused for good: kept for staff to see (and settle by hand), never asked again by `reconcile`. */
  private refuseRefund(em: EntityManager, payment: Payment, reason: string): void {
    this.move(em, payment, PaymentStatus.REFUND_REFUSED, {
      reason,
      left_cents: payment.capturedCents - payment.refundedCents,
    });
    payment.refundRefusal = reason;
    this.deps.logger.error(
      { payment_id: payment.id, reason },
      'the provider refused a refund for good; staff must settle it',
    );
  }

  /**
   * One step on one payment: the owner it names locked first as its holder, then the payment (D26's lock order),
   * retried on deadlock. The owner is read before any lock: it never changes.
   */
  private locked<T>(
    em: EntityManager,
    id: string,
    work: (tx: EntityManager, payment: Payment, holder: PaymentHolder | null) => Promise<T>,
  ): Promise<T> {
    return retryingTransaction(em, async (tx) => {
      const { type, id: ownerId } = (await tx.findOneOrFail(Payment, { id })).owner;
      const holder = await this.deps.owners[type].lockHolder(tx, ownerId, id);
      const payment = await tx.findOneOrFail(Payment, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      return work(tx, payment, holder);
    });
  }

  private move(em: EntityManager, payment: Payment, to: PaymentStatus, details?: Record<string, unknown>): void {
    const from = payment.status;
    paymentTransitions.assertMove(from, to, payment, { actor: null }, 'change the payment');
    payment.status = to;
    this.deps.audit.record(em, null, {
      action: `payment.${to}`,
      resourceType: 'payment',
      resourceId: payment.id,
      fromState: from,
      toState: to,
      details,
    });
  }

  /** The provider a payment was made with: the card provider, or work on account (D31). */
  private providerOf(payment: Pick<Payment, 'provider'>): PaymentProvider {
    return this.isOnAccount(payment) ? this.deps.onAccount : this.provider;
  }

  private reload(em: EntityManager, id: string): Promise<Payment> {
    return em.findOneOrFail(Payment, { id }, { refresh: true });
  }
}

const SETTLED: readonly PaymentStatus[] = [
  PaymentStatus.CAPTURED,
  PaymentStatus.REFUNDING,
  PaymentStatus.REFUNDED,
  PaymentStatus.REFUND_REFUSED,
];
/** Captured money of which some is still kept: what a refund can be counted against. */
const REFUNDABLE: readonly PaymentStatus[] = [
  PaymentStatus.CAPTURED,
  PaymentStatus.REFUNDING,
  PaymentStatus.REFUND_REFUSED,
];
const isSettled = (payment: Payment) => SETTLED.includes(payment.status);
const isStale = (step: { inFlightSince: Date | null }) =>
  !step.inFlightSince || step.inFlightSince.getTime() < Date.now() - STALE_AFTER_MS;
/**
 * What staff may still refund (D30): captured less refunded, less refunds asked and not answered yet; nothing once a
 * refund of all of it is owed (a cancel's), settled or refused.
 */
export const refundableCents = (payment: Payment) =>
  payment.status === PaymentStatus.CAPTURED
    ? payment.capturedCents - payment.refundedCents - payment.refundPendingCents
    : 0;
/** Why the provider did not make a refund staff asked for, for the staff member and the audit. */
const staffRefundRefusal = (answer: Exclude<RefundResult, { status: 'made' }>) =>
  answer.status === 'refused'
    ? answer.reason
    : 'less than that is left to refund at the provider (refunded there already); its event will update the books.';
/** Money that went back: a provider refund, or (`ALL_LEFT`) whatever the books still had as kept. */
type Returned = { refundId: string | null; amountCents: number | null };
const ALL_LEFT: Returned = { refundId: null, amountCents: null };
/** A refund request's outcome: what went back, or why the provider refused for good. */
type Settlement = Returned[] | { refused: string };
const settled = (answer: Exclude<RefundResult, { status: 'too_much' }>, ...then: Returned[]): Settlement =>
  answer.status === 'refused'
    ? { refused: answer.reason }
    : [{ refundId: answer.refundId, amountCents: answer.amountCents }, ...then];
const closed = (reason?: string | null) =>
  ValidationError.of('payment', reason ?? 'This checkout can no longer be paid.');

/** A declined or closed checkout is an answer, not a failure to redeliver: the event is acknowledged. */
function ignoreRefusal(error: unknown): void {
  if (!(error instanceof ValidationError)) throw error;
}
