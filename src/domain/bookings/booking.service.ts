import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { Mailer } from '../../providers/mail/mailer';
import { requireAccount } from '../accounts/authentication.service';
import type { AuditService } from '../audit/audit.service';
import { InterpretationMode } from '../catalog/catalog.enums';
import type { CatalogService } from '../catalog/catalog.service';
import { readLanguagePair } from '../catalog/language-pair';
import { InterpretationRate } from '../catalog/rates.entity';
import { bookingAvailabilityEmail, onHoldEmail } from '../mail/messages';
import { referenceNumber } from '../orders/order-number';
import type { Payment } from '../payments/payment.entity';
import type { PaymentOwner, PaymentService } from '../payments/payment.service';
import type { Ctx } from '../shared/context';
import { NotFoundError, ValidationError } from '../shared/errors';
import { isId } from '../shared/ids';
import { Page, paginate, readPageRequest } from '../shared/pagination';
import { assertTransition } from '../shared/state-machine';
import { changeStatusLocked, placeOnHold, releaseHold } from '../shared/status-change';
import { Validator } from '../shared/validation';
import { Booking, BookingSetting, BookingStatus } from './booking.entity';
import { CLIENT_CANCELLABLE, bookingTransitions } from './booking.states';

export interface BookingDeps {
  catalog: CatalogService;
  payments: PaymentService;
  mailer: Mailer;
  audit: AuditService;
  orderPrefix: string;
}

const MAX_HUNDREDTHS = 12 * 100;

/** Interpreter bookings (contract 2.7, 3.2, 4.13-4.16; D12): priced at once, paid after staff confirm. */
export class BookingService implements PaymentOwner {
  constructor(private readonly deps: BookingDeps) {
    deps.payments.registerOwner(this);
  }

  async create(ctx: Ctx, input: Record<string, unknown>): Promise<Booking> {
    const account = requireAccount(ctx.actor);
    const v = new Validator(input);
    const { source, target } = readLanguagePair(v, this.deps.catalog);
    const mode = v.oneOf('mode', Object.values(InterpretationMode), { required: true });
    const setting = v.oneOf('setting', Object.values(BookingSetting)) ?? BookingSetting.OTHER;
    const scheduledAt = this.scheduledAt(v);
    const duration = this.durationHundredths(v, input.duration_hours);
    const location = v.string('location', { required: mode === InterpretationMode.ON_SITE, max: 500 });
    const notes = v.string('video_platform_notes', { max: 2000 });
    const reference = v.string('reference', { max: 255 });
    v.done();

    const rate = await ctx.em.findOneOrFail(InterpretationRate, { mode: mode! });
    const billable = Math.max(duration!, rate.minimumHours * 100);
    const booking = Object.assign(new Booking(), {
      number: referenceNumber(this.deps.orderPrefix, new Date(), 'INT'),
      account,
      sourceLanguage: source!,
      targetLanguage: target!,
      mode: mode!,
      setting,
      scheduledAt: scheduledAt!,
      durationHundredths: duration!,
      billableHundredths: billable,
      unitPriceCents: rate.unitPriceCents,
      totalCents: Math.round((billable * rate.unitPriceCents) / 100),
      currency: rate.currency,
      location: location ?? null,
      videoPlatformNotes: notes ?? null,
      reference: reference ?? null,
    });
    await ctx.em.persistAndFlush(booking);
    return booking;
  }

  async get(ctx: Ctx, id: unknown): Promise<Booking> {
    const account = requireAccount(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    const booking = await ctx.em.findOne(Booking, { id, account });
    if (!booking) throw new NotFoundError();
    return booking;
  }

  async list(ctx: Ctx, query: { status?: unknown; page?: unknown; per_page?: unknown }): Promise<Page<Booking>> {
    const account = requireAccount(ctx.actor);
    return this.page(ctx, query, { account }, { createdAt: 'desc', id: 'desc' });
  }

  /** Staff: every account's bookings, soonest first. */
  async staffList(ctx: Ctx, query: { status?: unknown; page?: unknown; per_page?: unknown }): Promise<Page<Booking>> {
    return this.page(ctx, query, {}, { scheduledAt: 'asc', id: 'asc' });
  }

  /** Client cancel before payment only; an open checkout is withdrawn (contract 4.16). */
  async cancel(ctx: Ctx, id: unknown): Promise<Booking> {
    const mine = await this.get(ctx, id);
    return this.change(ctx, mine.id, 'cancel', async (_em, booking) => {
      if (!CLIENT_CANCELLABLE.includes(booking.status)) {
        throw ValidationError.of('status', `Cannot cancel the booking while the status is ${booking.status}.`);
      }
      await this.cancelLocked(booking);
    });
  }

  /** Staff found an interpreter: the checkout is created and its link e-mailed, in one transaction (D12). */
  async confirmAvailability(ctx: Ctx, id: unknown, input: { interpreter_name?: unknown }): Promise<Booking> {
    const v = new Validator(input as Record<string, unknown>);
    const interpreter = v.string('interpreter_name', { required: true, max: 255 });
    v.done();
    return this.change(ctx, id, 'confirm_availability', async (em, booking) => {
      assertTransition(bookingTransitions, booking.status, BookingStatus.AWAITING_PAYMENT, 'confirm availability');
      booking.payment = await this.deps.payments.startCheckout({
        amountCents: booking.totalCents,
        currency: booking.currency,
        reference: booking.number,
        description: `Interpretation booking ${booking.number}`,
        redirectUrl: null,
      });
      Object.assign(booking, { status: BookingStatus.AWAITING_PAYMENT, interpreterName: interpreter! });
      em.persist(booking.payment);
      await em.flush();
      await this.deps.mailer.send(em, bookingAvailabilityEmail(booking.account, booking, booking.payment.approvalUrl!));
    });
  }

  async complete(ctx: Ctx, id: unknown): Promise<Booking> {
    return this.change(ctx, id, 'complete', async (_em, booking) => {
      assertTransition(bookingTransitions, booking.status, BookingStatus.COMPLETED, 'complete the booking');
      Object.assign(booking, { status: BookingStatus.COMPLETED, completedAt: new Date() });
    });
  }

  async hold(ctx: Ctx, id: unknown, input: { reason?: unknown }): Promise<Booking> {
    const v = new Validator(input as Record<string, unknown>);
    const reason = v.string('reason', { required: true, max: 500 });
    v.done();
    return this.change(ctx, id, 'hold', (em, booking) => this.holdLocked(em, booking, reason!), reason);
  }

  async release(ctx: Ctx, id: unknown): Promise<Booking> {
    return this.change(ctx, id, 'release', async (_em, booking) => void releaseHold(booking, 'booking'));
  }

  /** Staff cancel from any open state; a paid booking is refunded (D12). */
  async staffCancel(ctx: Ctx, id: unknown, input: { reason?: unknown }): Promise<Booking> {
    const v = new Validator(input as Record<string, unknown>);
    const reason = v.string('reason', { required: true, max: 500 });
    v.done();
    return this.change(ctx, id, 'cancel', async (_em, booking) => this.cancelLocked(booking), reason);
  }

  /** PaymentOwner: paid -> confirmed, locked in for the date (contract 3.2). */
  async paymentConfirmed(em: EntityManager, payment: Payment): Promise<boolean> {
    const booking = await em.findOne(Booking, { payment }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!booking) return false;
    const from = booking.status;
    if (from === BookingStatus.ON_HOLD && booking.heldFrom === BookingStatus.AWAITING_PAYMENT) booking.heldFrom = BookingStatus.CONFIRMED;
    else {
      assertTransition(bookingTransitions, from, BookingStatus.CONFIRMED, 'confirm the booking');
      booking.status = BookingStatus.CONFIRMED;
    }
    this.deps.audit.record(em, null, { action: 'booking.paid', resourceType: 'booking', resourceId: booking.id, fromState: from, toState: booking.status });
    return true;
  }

  /** PaymentOwner: the money was taken back; hold the booking for staff. */
  async paymentReversed(em: EntityManager, payment: Payment, reason: string): Promise<boolean> {
    const booking = await em.findOne(Booking, { payment }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['account'] });
    if (!booking) return false;
    if (bookingTransitions[booking.status].includes(BookingStatus.ON_HOLD)) {
      const from = booking.status;
      await this.holdLocked(em, booking, reason);
      this.deps.audit.record(em, null, { action: 'booking.hold', resourceType: 'booking', resourceId: booking.id, fromState: from, toState: booking.status, details: { reason } });
    }
    return true;
  }

  /** On hold with the reason, and the account is told (D12, D17). */
  private async holdLocked(em: EntityManager, booking: Booking, reason: string): Promise<void> {
    placeOnHold(booking, bookingTransitions, reason, 'booking');
    await em.flush();
    await this.deps.mailer.send(em, onHoldEmail(booking.account, `Booking ${booking.number}`, reason));
  }

  private async cancelLocked(booking: Booking): Promise<void> {
    assertTransition(bookingTransitions, booking.status, BookingStatus.CANCELLED, 'cancel the booking');
    if (booking.payment) await this.deps.payments.settleCancellation(booking.payment);
    Object.assign(booking, { status: BookingStatus.CANCELLED, cancelledAt: new Date(), heldFrom: null });
  }

  private async page(ctx: Ctx, query: { status?: unknown; page?: unknown; per_page?: unknown }, where: object, orderBy: object): Promise<Page<Booking>> {
    const v = new Validator(query as Record<string, unknown>);
    const status = v.oneOf('status', Object.values(BookingStatus));
    const page = readPageRequest(v);
    v.done();
    return paginate(ctx.em, Booking, { ...where, ...(status ? { status } : {}) }, page, { orderBy: orderBy as never });
  }

  private change(ctx: Ctx, id: unknown, action: string, apply: (em: EntityManager, booking: Booking) => Promise<void>, reason?: string): Promise<Booking> {
    return changeStatusLocked({ ctx, entity: Booking, id, resourceType: 'booking', action, audit: this.deps.audit, reason, populate: ['account'], apply });
  }

  /** An ISO 8601 time with an explicit offset, in the future (D12); normalised to UTC by being a Date. */
  private scheduledAt(v: Validator): Date | undefined {
    const date = v.dateTime('scheduled_at', { required: true });
    if (date === undefined) return undefined;
    if (date.getTime() <= Date.now()) return v.fail('scheduled_at', 'The scheduled at field must be a date in the future.'), undefined;
    return date;
  }

  /** More than 0, at most 12, at most two decimals; kept as hundredths. */
  private durationHundredths(v: Validator, raw: unknown): number | undefined {
    if (raw === undefined || raw === null || raw === '') return v.fail('duration_hours', 'The duration hours field is required.'), undefined;
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isFinite(value)) return v.fail('duration_hours', 'The duration hours field must be a number.'), undefined;
    const hundredths = Math.round(value * 100);
    if (Math.abs(hundredths - value * 100) > 1e-6) return v.fail('duration_hours', 'The duration hours field must have at most 2 decimal places.'), undefined;
    if (hundredths <= 0 || hundredths > MAX_HUNDREDTHS) return v.fail('duration_hours', 'The duration hours field must be greater than 0 and at most 12.'), undefined;
    return hundredths;
  }
}
