import { Account, BillingTerms } from '../identity/account.entity';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { requireAccount, requireAccountId, requireStaff } from '../identity/guards';
import { placedBy } from '../identity/placed-by';
import type { CatalogService } from '../catalog/catalog.service';
import { InterpretationRate } from '../catalog/rates.entity';
import { referenceNumber } from '../shared/reference-number';
import type { CheckoutReturn } from '../payments/payment.commands';
import { readRenewalRequest } from '../payments/renewal-request';
import {
  paymentOf,
  refundableCents,
  type CancelKept,
  type CheckoutRequest,
  type PaymentService,
} from '../payments/payment.service';
import { Payment } from '../payments/payment.entity';
import type { Ctx } from '../identity/context';
import type { Logger } from '../../shared/logger';
import { NotFoundError, ValidationError } from '../../shared/errors';
import type { EventHub } from '../shared/event-hub';
import { isId } from '../shared/ids';
import { pageRequest, type VersionedPage } from '../shared/pagination';
import type { MoveCause } from '../lifecycle/lifecycle';
import {
  bookingAnswerOf,
  bookingVersionOf,
  polledBookingOf,
  readBooking,
  readBookingPage,
  readBookingVersion,
} from './polled-bookings.queries';
import type { PolledAnswer, PolledRead } from '../identity/account-by-key.queries';
import type { BookingRead, PolledBooking } from './booking-read';
import { Booking, BookingSetting, BookingStatus, hoursOf } from './booking.entity';
import type { StaffReason } from '../desk/desk.commands';
import type {
  CompleteBooking,
  ConfirmAvailability,
  CreateBooking,
  ListBookings,
  ReplaceInterpreter,
  StaffBookingRefund,
  StaffCancelBooking,
} from './booking.commands';
import { overtimeOf } from './booking-overtime';
import { cancellationFee, underPolicy, type CancellationFee } from './cancellation-policy';
import { priceHours } from './booking-price';
import type { BookingActivity } from './booking-activity';
import { CONFIRM_AVAILABILITY, EXPIRED, REPLACE_INTERPRETER, type BookingLifecycle } from './booking.lifecycle';
import { Interpreter } from './interpreter.entity';
import { assertQualifies, unknownInterpreter } from './interpreter-rules';
import { assertInterpreterFree } from './interpreter-time';
import { UNPAID } from './booking.states';

export interface BookingDeps {
  catalog: CatalogService;
  payments: PaymentService;
  lifecycle: BookingLifecycle;
  events: EventHub<BookingActivity>;
  logger: Logger;
  orderPrefix: string;
  /** The operator's base language: a booking from or into it needs an interpreter of the other only (D32). */
  baseLanguage: string;
}

/** The job's cause when the start of an unpaid booking passes (D29); `tellAccountOfBooking` tells the account. */
const EXPIRY: MoveCause = { actor: null, action: EXPIRED, reason: 'The start passed before the booking was paid.' };

/** The checkout of a booking's total, returning the payer to `redirectUrl` (D9). */
const checkoutFor = (booking: Booking, redirectUrl: string | null): CheckoutRequest => ({
  owner: { type: 'booking', id: booking.id },
  amountCents: booking.totalCents,
  currency: booking.currency,
  reference: booking.number,
  description: `Interpretation booking ${booking.number}`,
  redirectUrl,
});

/** The checkout of a booking's overtime (D32), returning the payer where the booking's own checkout did. */
const overtimeCheckout = (booking: Booking, amountCents: number): CheckoutRequest => ({
  owner: { type: 'booking', id: booking.id },
  amountCents,
  currency: booking.currency,
  reference: `${booking.number}-OT`,
  description: `Overtime of interpretation booking ${booking.number}`,
  redirectUrl: booking.payment?.redirectUrl ?? booking.redirectUrl,
});

/** Interpreter bookings (`createBooking`, `listBookings`, `getBooking`, `cancelBooking`, `renewBookingCheckout`; D12, D26): priced at once, paid after staff confirm. */
export class BookingService {
  /** Every status change of a booking goes through here. */
  private readonly lifecycle: BookingLifecycle;

  constructor(private readonly deps: BookingDeps) {
    this.lifecycle = deps.lifecycle;
  }

  async create(ctx: Ctx, command: CreateBooking): Promise<Booking> {
    const account = requireAccount(ctx.actor, 'bookings.create');
    const { mode, scheduledAt, durationHours: durationHundredths } = command;
    const rate = await ctx.em.findOneOrFail(InterpretationRate, { mode });
    const { billableHundredths, totalCents } = priceHours(
      durationHundredths,
      rate.minimumHours,
      rate.unitPriceCents,
      rate.currency,
    );
    const booking = ctx.em.create(Booking, {
      number: referenceNumber(this.deps.orderPrefix, new Date(), 'INT'),
      account,
      placedBy: placedBy(ctx.actor),
      sourceLanguage: command.sourceLanguage,
      targetLanguage: command.targetLanguage,
      mode,
      setting: command.setting ?? BookingSetting.OTHER,
      scheduledAt: scheduledAt.date,
      scheduledOffsetMinutes: scheduledAt.offsetMinutes,
      durationHundredths,
      billableHundredths,
      unitPriceCents: rate.unitPriceCents,
      totalCents,
      currency: rate.currency,
      location: command.location ?? null,
      videoPlatformNotes: command.videoPlatformNotes ?? null,
      reference: command.reference ?? null,
      redirectUrl: command.redirectUrl ?? null,
    });
    await ctx.em.flush();
    return booking;
  }

  /**
   * The booking `id` of the caller's account and its payment, as polled all day: one statement (D23); `known` is that
   * answer when an API key's look-up already read it (`AuthenticationService.resolvePolling`): null when it found
   * none.
   */
  async get(ctx: Ctx, id: unknown, known?: PolledAnswer | null): Promise<PolledBooking> {
    const accountId = requireAccountId(ctx.actor, 'bookings.read');
    if (!isId(id)) throw new NotFoundError();
    const polled =
      known === undefined ? await readBooking(ctx.em, accountId, id) : known && polledBookingOf(known.row, known.date);
    if (!polled) throw new NotFoundError();
    return polled;
  }

  /** What a GET of booking `id` polls: an API key's look-up reads its version or its answer in the same statement (D23). */
  polled(id: string, reads: PolledRead['reads']): PolledRead {
    return { name: 'booking', id, reads, versionOf: bookingVersionOf, answerOf: bookingAnswerOf };
  }

  /**
   * The version `get` would answer with, read alone for a conditional request (D23), unless `known`: the one an API
   * key's look-up already read (`AuthenticationService.resolvePolling`).
   */
  async version(ctx: Ctx, id: unknown, known?: string | null): Promise<string> {
    const version = await this.readVersion(ctx, id, known);
    if (version === null) throw new NotFoundError();
    return version;
  }

  /** As `version`, null when the caller has none by that id: what the polling lane hands over with a poll. */
  async readVersion(ctx: Ctx, id: unknown, known?: string | null): Promise<string | null> {
    const accountId = requireAccountId(ctx.actor, 'bookings.read');
    if (!isId(id)) return null;
    return known === undefined ? readBookingVersion(ctx.em, accountId, id) : known;
  }

  /** Newest first, or with `updated_since` oldest change first (D23), as orders: the page, its total and payments in one statement. */
  async list(ctx: Ctx, command: ListBookings): Promise<VersionedPage<BookingRead>> {
    const accountId = requireAccountId(ctx.actor, 'bookings.read');
    const filter = { status: command.status, updatedSince: command.updatedSince?.date };
    return readBookingPage(ctx.em, accountId, filter, pageRequest(command));
  }

  /** Client cancel before payment only (`cancelBooking`, the table's guard); an open checkout is withdrawn. */
  async cancel(ctx: Ctx, id: unknown): Promise<Booking> {
    requireAccountId(ctx.actor, 'bookings.cancel');
    await this.version(ctx, id);
    return this.cancelBooking(ctx, id, { actor: ctx.actor, action: 'cancel' });
  }

  /**
   * Staff found an interpreter, before the start (D29): the move and the interpreter's qualifications (D32) are
   * checked, the checkout is created (before any lock, D26), then the booking is locked, checked again and moved, and
   * the link e-mailed, in one transaction (D12). An interpreter on record is locked after the booking and checked for
   * overlaps there: of two confirmations of one interpreter for overlapping bookings, the second waits for the first
   * and then sees it.
   */
  async confirmAvailability(ctx: Ctx, id: unknown, command: ConfirmAvailability): Promise<Booking> {
    requireStaff(ctx.actor, 'confirmInterpretationAvailability');
    if (!isId(id)) throw new NotFoundError();
    const current = await ctx.em.findOne(Booking, { id }, { refresh: true });
    if (!current) throw new NotFoundError();
    const cause = { actor: ctx.actor, action: CONFIRM_AVAILABILITY };
    const describe = 'confirm availability';
    this.lifecycle.check(current, BookingStatus.AWAITING_PAYMENT, cause, describe);
    const interpreterId = 'interpreterId' in command ? command.interpreterId : undefined;
    if (interpreterId) await this.qualified(ctx.em, current, interpreterId);
    // D31: on terms the link opens the placement page instead of a card checkout.
    const { billingTerms } = await ctx.em.findOneOrFail(Account, { id: current.account.id });
    const checkout = await this.deps.payments.startCheckout(checkoutFor(current, current.redirectUrl), {
      onAccount: billingTerms !== BillingTerms.CHECKOUT,
    });
    return this.lifecycle.change(ctx.em, { id }, async (em, booking) => {
      const payment = paymentOf(em, checkout);
      if (interpreterId) {
        const interpreter = await this.qualified(em, booking, interpreterId, LockMode.PESSIMISTIC_WRITE);
        Object.assign(booking, { interpreter, interpreterName: interpreter.name });
      } else if ('interpreterName' in command) booking.interpreterName = command.interpreterName;
      booking.payment = payment;
      em.persist(payment);
      await this.lifecycle.move(em, booking, BookingStatus.AWAITING_PAYMENT, cause, describe);
      // Awaiting payment, the booking holds its interpreter's time: checked under the interpreter's lock.
      await assertInterpreterFree(em, booking);
    });
  }

  /** The interpreter `interpreterId`, read (locked when asked) and checked against the booking's needs (D32). */
  private async qualified(
    em: EntityManager,
    booking: Booking,
    interpreterId: string,
    lockMode?: LockMode,
  ): Promise<Interpreter> {
    const interpreter = await em.findOne(Interpreter, { id: interpreterId }, { lockMode, refresh: true });
    if (!interpreter) throw unknownInterpreter();
    assertQualifies(booking, interpreter, this.deps.baseLanguage);
    return interpreter;
  }

  /**
   * The session took place: only once its start has passed (D29, the table's guard). With the hours it really took
   * (D32), the time past `billable_hours`, rounded up to the half hour, is charged at the booking's rate: by a checkout
   * of its own, made before any lock (D26) and e-mailed with the completion; or, for an account on terms (D31), placed
   * on account at once, whatever its credit (the time was given), to be a line of its next invoice.
   */
  async complete(ctx: Ctx, id: unknown, { actualHours }: CompleteBooking): Promise<Booking> {
    requireStaff(ctx.actor, 'completeInterpretationBooking');
    if (!isId(id)) throw new NotFoundError();
    const cause = { actor: ctx.actor, action: 'complete' };
    const current = await ctx.em.findOne(Booking, { id }, { refresh: true });
    if (!current) throw new NotFoundError();
    this.lifecycle.check(current, BookingStatus.COMPLETED, cause);
    const overtime = actualHours === undefined ? null : overtimeOf(current, actualHours);
    const { billingTerms } = await ctx.em.findOneOrFail(Account, { id: current.account.id });
    const onAccount = billingTerms !== BillingTerms.CHECKOUT;
    const checkout =
      overtime &&
      (await this.deps.payments.startCheckout(overtimeCheckout(current, overtime.overtimeCents), { onAccount }));
    const booking = await this.lifecycle.change(ctx.em, { id }, async (em, booking) => {
      await this.lifecycle.move(em, booking, BookingStatus.COMPLETED, cause);
      if (actualHours === undefined) return;
      // Placed by the completion itself on account: there is nothing for the client to approve.
      const payment = checkout && paymentOf(em, onAccount ? { ...checkout, approvalUrl: null } : checkout);
      Object.assign(booking, { actualHundredths: actualHours, ...overtime, overtimePayment: payment });
      await this.lifecycle.record(
        em,
        booking,
        booking.status,
        { ...cause, action: 'actual_hours' },
        {
          actual_hours: hoursOf(actualHours),
          overtime_hours: overtime ? hoursOf(overtime.overtimeHundredths) : 0,
          overtime_cents: overtime?.overtimeCents ?? 0,
          payment_id: payment?.id ?? null,
          on_account: Boolean(payment && onAccount),
        },
      );
      if (!payment || !overtime) return;
      em.persist(payment);
      if (onAccount) return this.deps.payments.placeOwedOnAccount(em, payment);
      const hours = {
        hours: hoursOf(overtime.overtimeHundredths),
        actualHours: hoursOf(actualHours),
        amountCents: overtime.overtimeCents,
      };
      await this.deps.events.raise(em, { kind: 'overtime_billed', booking, payment, overtime: hours });
    });
    if (!checkout || !onAccount) return booking;
    // Captured as a placement is (the account is told it is on account); a crash before it leaves the payment
    // capturing, which the reconciliation takes up.
    await this.deps.payments.confirm(ctx.em, checkout.providerOrderId!);
    return ctx.em.findOneOrFail(Booking, { id: booking.id }, { refresh: true });
  }

  async hold(ctx: Ctx, id: unknown, { reason }: StaffReason): Promise<Booking> {
    requireStaff(ctx.actor, 'holdInterpretationBooking');
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, (em, booking) =>
      this.lifecycle.hold(em, booking, { actor: ctx.actor, action: 'hold', reason }),
    );
  }

  /**
   * Back to the state it was held from. A booking on hold holds no interpreter's time, so one released back to
   * `awaiting_payment` or `confirmed` takes it again: its interpreter on record must still qualify (an inactive one no
   * longer does) and be free, checked as a confirmation checks them, under the interpreter's lock taken after the
   * booking's (D32). Of a release and a confirmation of the same interpreter for an overlapping booking, the second
   * waits for the first and is refused with its 422.
   */
  async release(ctx: Ctx, id: unknown): Promise<Booking> {
    requireStaff(ctx.actor, 'releaseInterpretationBooking');
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, async (em, booking) => {
      await this.lifecycle.release(em, booking, { actor: ctx.actor, action: 'release' });
      if (!booking.interpreter) return;
      await this.qualified(em, booking, booking.interpreter.id, LockMode.PESSIMISTIC_WRITE);
      await assertInterpreterFree(em, booking);
    });
  }

  /**
   * Another interpreter on record for a booking still open (D32): the way out of a hold whose interpreter was
   * deactivated or given the slot meanwhile, which `release` would refuse. The booking is locked, then the new
   * interpreter (one lock order everywhere), who is checked as a confirmation checks them; a booking holding time
   * (confirmed or awaiting payment) is checked for overlaps too, a held one again when it is released. Audited with
   * the interpreter before and after.
   */
  async replaceInterpreter(ctx: Ctx, id: unknown, { interpreterId }: ReplaceInterpreter): Promise<Booking> {
    requireStaff(ctx.actor, 'replaceInterpreter');
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, async (em, booking) => {
      this.lifecycle.assertAction(booking, 'assign_interpreter');
      const before = { interpreter_id: booking.interpreter?.id ?? null, name: booking.interpreterName };
      const interpreter = await this.qualified(em, booking, interpreterId, LockMode.PESSIMISTIC_WRITE);
      Object.assign(booking, { interpreter, interpreterName: interpreter.name });
      await assertInterpreterFree(em, booking);
      const after = { interpreter_id: interpreter.id, name: interpreter.name };
      const cause = { actor: ctx.actor, action: REPLACE_INTERPRETER };
      await this.lifecycle.record(em, booking, booking.status, cause, { before, after });
    });
  }

  /**
   * What a staff cancel of `booking` would keep and refund now, by the policy's one rule (D32), for the desk to see
   * before it cancels; null while it cancels free (unpaid) or is finished.
   */
  async cancellationFeeNow(
    ctx: Ctx,
    booking: Pick<Booking, 'status' | 'heldFrom' | 'scheduledAt' | 'scheduledOffsetMinutes'> & {
      payment: { id: string } | null;
    },
  ): Promise<CancellationFee | null> {
    requireStaff(ctx.actor, 'InterpretationBooking.cancellationFeeNow');
    if (!underPolicy(booking) || !booking.payment) return null;
    const payment = await ctx.em.findOneOrFail(Payment, { id: booking.payment.id });
    return cancellationFee(booking, refundableCents(payment), payment.currency, false);
  }

  /**
   * A fresh checkout for a booking awaiting payment whose start has not passed (D29); the old one no longer pays. The
   * payer returns to `redirect_url` when given, else where the old checkout sent them.
   */
  async renewCheckout(ctx: Ctx, id: unknown, { redirectUrl }: CheckoutReturn): Promise<Booking> {
    const current = await readRenewalRequest(ctx, Booking, id, 'bookings.renew_checkout');
    return this.deps.payments.renewCheckout(ctx.em, this.lifecycle, current, {
      checkout: checkoutFor(current, redirectUrl ?? current.payment?.redirectUrl ?? current.redirectUrl),
      cause: { actor: ctx.actor, action: 'checkout_renewed' },
    });
  }

  /** D31: a booking its placement page cannot place on account is paid by card instead (`PaymentService.payByCard`). */
  payByCard(em: EntityManager, providerOrderId: string): Promise<Payment> {
    return this.deps.payments.payByCard(em, this.lifecycle, providerOrderId, checkoutFor);
  }

  /**
   * Cancels the unpaid bookings whose start has passed, each account e-mailed (D29); the workers run it periodically.
   * Each booking is locked and checked again by the table's guard, at `now`, so processes sweeping at once cancel it
   * once. One whose capture is under way is left to a later sweep: the capture decides, and money that lands after the
   * start goes back (D26).
   */
  async expireStarted(em: EntityManager, now = new Date()): Promise<number> {
    const due = await em.fork().find(
      Booking,
      {
        scheduledAt: { $lte: now },
        $or: [{ status: { $in: UNPAID } }, { status: BookingStatus.ON_HOLD, heldFrom: { $in: UNPAID } }],
      },
      { fields: ['id'], limit: 100, orderBy: { scheduledAt: 'asc' } },
    );
    let cancelled = 0;
    for (const { id } of due) {
      try {
        await this.deps.payments.cancelHolder(em.fork(), this.lifecycle, id, { ...EXPIRY, at: now });
        cancelled++;
      } catch (error) {
        // Paid, cancelled or capturing meanwhile: nothing to do now. Anything else is logged, and the sweep goes on.
        if (!(error instanceof ValidationError))
          this.deps.logger.warn({ err: error, booking_id: id }, 'booking expiry failed; the next sweep tries again');
      }
    }
    return cancelled;
  }

  /**
   * Staff cancel from any open state (D12); a paid booking is refunded as the cancellation policy says, by the hours
   * left before its start, unless staff waive the fee (D32). The fee is named in the e-mail and audited.
   */
  async staffCancel(ctx: Ctx, id: unknown, { reason, waiveFee }: StaffCancelBooking): Promise<Booking> {
    requireStaff(ctx.actor, 'staffCancelInterpretationBooking');
    if (!isId(id)) throw new NotFoundError();
    const keep = (booking: Booking, leftCents: number, currency: string): CancelKept => {
      const fee = cancellationFee(booking, leftCents, currency, waiveFee ?? false);
      return {
        settlement: { refundCents: fee.refundCents, currency, note: fee.note },
        details: {
          fee_cents: fee.feeCents,
          refund_cents: fee.refundCents,
          refund_percent: fee.refundPercent,
          hours_before_start: Math.round(fee.hoursBeforeStart * 100) / 100,
          waived: fee.waived,
        },
      };
    };
    const cause = { actor: ctx.actor, action: 'cancel', reason };
    return this.deps.payments.cancelHolder(ctx.em, this.lifecycle, id, cause, keep);
  }

  /**
   * D30: staff give back part or all of what the booking captured, from its own payment or, with `overtime`, from its
   * overtime's (D32); the booking keeps its state.
   */
  async refund(ctx: Ctx, id: unknown, { overtime, ...command }: StaffBookingRefund): Promise<Booking> {
    requireStaff(ctx.actor, 'refundInterpretationBooking');
    if (!isId(id)) throw new NotFoundError();
    const paymentOf = overtime ? (booking: Booking) => booking.overtimePayment : undefined;
    return this.deps.payments.refundHolder(ctx.em, this.lifecycle, id, command, ctx.actor, paymentOf);
  }

  /** Cancels with its payment, if any, settled (D26); a capture under way refuses the cancel. */
  private cancelBooking(ctx: Ctx, id: unknown, cause: MoveCause): Promise<Booking> {
    if (!isId(id)) throw new NotFoundError();
    return this.deps.payments.cancelHolder(ctx.em, this.lifecycle, id, cause);
  }
}
