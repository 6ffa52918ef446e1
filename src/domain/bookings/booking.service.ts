import type { EntityManager } from '@mikro-orm/core';
import type { Mailer } from '../../providers/mail/mailer';
import { requireAccount, requireAccountId, requireStaff } from '../accounts/authentication.service';
import type { AuditService } from '../audit/audit.service';
import { InterpretationMode } from '../catalog/catalog.enums';
import type { CatalogService } from '../catalog/catalog.service';
import { readLanguagePair } from '../catalog/language-pair';
import { InterpretationRate } from '../catalog/rates.entity';
import { bookingAvailabilityEmail } from '../mail/messages';
import { referenceNumber } from '../orders/order-number';
import { accountOf } from '../accounts/account-of';
import { formatMoney, type CheckoutSummary } from '../payments/checkout-summary';
import { lifecycleHolder } from '../payments/lifecycle-holder';
import type { PaymentHolder, PaymentOwner, PaymentService } from '../payments/payment.service';
import type { Ctx } from '../shared/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isId } from '../shared/ids';
import { Page, paginate, readPageRequest, type PageRequest } from '../shared/pagination';
import type { MoveCause } from '../shared/lifecycle';
import { assertTransition } from '../shared/state-machine';
import { Validator } from '../shared/validation';
import { readBooking, readBookingPage, readBookingVersion, type BookingRead, type PolledBooking } from './booking-read';
import { Booking, BookingSetting, BookingStatus } from './booking.entity';
import { bookingLifecycle, type BookingLifecycle } from './booking.lifecycle';
import { CLIENT_CANCELLABLE, bookingTransitions } from './booking.states';

export interface BookingDeps {
  catalog: CatalogService;
  payments: PaymentService;
  mailer: Mailer;
  audit: AuditService;
  orderPrefix: string;
}

const MAX_HUNDREDTHS = 12 * 100;

/** Interpreter bookings (contract 2.7, 3.2, 4.13-4.16; D12, D26): priced at once, paid after staff confirm. */
export class BookingService implements PaymentOwner {
  /** Every status change of a booking goes through here. */
  private readonly lifecycle: BookingLifecycle;

  constructor(private readonly deps: BookingDeps) {
    this.lifecycle = bookingLifecycle(deps);
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
    const redirectUrl = v.httpUrl('redirect_url');
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
      redirectUrl: redirectUrl ?? null,
    });
    await ctx.em.persistAndFlush(booking);
    return booking;
  }

  /** The booking and its payment, as polled all day: one statement (D23). */
  async get(ctx: Ctx, id: unknown): Promise<PolledBooking> {
    const accountId = requireAccountId(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    const polled = await readBooking(ctx.em, accountId, id);
    if (!polled) throw new NotFoundError();
    return polled;
  }

  /** The version `get` would answer with, read alone for a conditional request (D23). */
  async version(ctx: Ctx, id: unknown): Promise<string> {
    const accountId = requireAccountId(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    const version = await readBookingVersion(ctx.em, accountId, id);
    if (version === null) throw new NotFoundError();
    return version;
  }

  /** Newest first: the count and the page with its payments, read without entities like `get`. */
  async list(ctx: Ctx, query: { status?: unknown; page?: unknown; per_page?: unknown }): Promise<Page<BookingRead>> {
    const accountId = requireAccountId(ctx.actor);
    const { status, page } = this.pageRequest(query);
    return readBookingPage(ctx.em, accountId, status, page);
  }

  /** Staff: every account's bookings, soonest first. */
  async staffList(ctx: Ctx, query: { status?: unknown; page?: unknown; per_page?: unknown }): Promise<Page<Booking>> {
    requireStaff(ctx.actor);
    const { status, page } = this.pageRequest(query);
    return paginate(ctx.em, Booking, status ? { status } : {}, page, { orderBy: { scheduledAt: 'asc', id: 'asc' } });
  }

  /** Client cancel before payment only; an open checkout is withdrawn (contract 4.16). */
  async cancel(ctx: Ctx, id: unknown): Promise<Booking> {
    await this.version(ctx, id);
    return this.cancelBooking(ctx, id, { actor: ctx.actor, action: 'cancel' }, (booking) => {
      if (!CLIENT_CANCELLABLE.includes(booking.status)) {
        throw ValidationError.of('status', `Cannot cancel the booking while the status is ${booking.status}.`);
      }
    });
  }

  /**
   * Staff found an interpreter: the checkout is created (before any lock, D26), then the booking is locked,
   * checked again and moved, and the link e-mailed, in one transaction (D12).
   */
  async confirmAvailability(ctx: Ctx, id: unknown, input: { interpreter_name?: unknown }): Promise<Booking> {
    requireStaff(ctx.actor);
    const v = new Validator(input as Record<string, unknown>);
    const interpreter = v.string('interpreter_name', { required: true, max: 255 });
    v.done();
    if (!isId(id)) throw new NotFoundError();
    const current = await ctx.em.findOne(Booking, { id }, { refresh: true });
    if (!current) throw new NotFoundError();
    const describe = 'confirm availability';
    assertTransition(bookingTransitions, current.status, BookingStatus.AWAITING_PAYMENT, describe);
    const payment = await this.deps.payments.startCheckout({
      amountCents: current.totalCents,
      currency: current.currency,
      reference: current.number,
      description: `Interpretation booking ${current.number}`,
      redirectUrl: current.redirectUrl,
    });
    return this.lifecycle.change(ctx.em, { id }, async (em, booking) => {
      Object.assign(booking, { payment, interpreterName: interpreter! });
      em.persist(payment);
      await this.lifecycle.move(em, booking, BookingStatus.AWAITING_PAYMENT, { actor: ctx.actor, action: 'confirm_availability' }, describe);
      await this.deps.mailer.send(em, bookingAvailabilityEmail(await accountOf(em, booking), booking, payment.approvalUrl!));
    });
  }

  async complete(ctx: Ctx, id: unknown): Promise<Booking> {
    requireStaff(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, (em, booking) => this.lifecycle.move(em, booking, BookingStatus.COMPLETED, { actor: ctx.actor, action: 'complete' }));
  }

  async hold(ctx: Ctx, id: unknown, input: { reason?: unknown }): Promise<Booking> {
    requireStaff(ctx.actor);
    const v = new Validator(input as Record<string, unknown>);
    const reason = v.string('reason', { required: true, max: 500 });
    v.done();
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, (em, booking) => this.lifecycle.hold(em, booking, { actor: ctx.actor, action: 'hold', reason }));
  }

  async release(ctx: Ctx, id: unknown): Promise<Booking> {
    requireStaff(ctx.actor);
    if (!isId(id)) throw new NotFoundError();
    return this.lifecycle.change(ctx.em, { id }, (em, booking) => this.lifecycle.release(em, booking, { actor: ctx.actor, action: 'release' }));
  }

  /** Staff cancel from any open state; a paid booking is refunded (D12). */
  async staffCancel(ctx: Ctx, id: unknown, input: { reason?: unknown }): Promise<Booking> {
    requireStaff(ctx.actor);
    const v = new Validator(input as Record<string, unknown>);
    const reason = v.string('reason', { required: true, max: 500 });
    v.done();
    return this.cancelBooking(ctx, id, { actor: ctx.actor, action: 'cancel', reason });
  }

  /** PaymentOwner: the booking holding this payment, locked before the payment (D26). Paid: confirmed (contract 3.2). */
  async lockHolder(em: EntityManager, paymentId: string): Promise<PaymentHolder | null> {
    const booking = await this.lifecycle.lock(em, { payment: paymentId });
    if (!booking) return null;
    return lifecycleHolder(this.lifecycle, booking, {
      awaiting: BookingStatus.AWAITING_PAYMENT,
      paid: BookingStatus.CONFIRMED,
      label: `Booking ${booking.number}`,
      mailer: this.deps.mailer,
    });
  }

  /** PaymentOwner: the booking's hours at its rate (contract 2.7). */
  async summarize(em: EntityManager, paymentId: string): Promise<CheckoutSummary | null> {
    const booking = await em.findOne(Booking, { payment: paymentId });
    if (!booking) return null;
    const when = booking.scheduledAt.toISOString().replace('T', ' ').slice(0, 16);
    return {
      kind: 'booking',
      id: booking.id,
      number: booking.number,
      lines: [
        {
          label: `Interpreter (${booking.mode.replace(/_/g, ' ')}), ${booking.sourceLanguage} to ${booking.targetLanguage}, ${when} UTC, ${booking.billableHours} h at ${formatMoney(booking.unitPriceCents, booking.currency)}/h`,
          amountCents: booking.totalCents,
        },
      ],
      totalCents: booking.totalCents,
      currency: booking.currency,
    };
  }

  /** Cancels with its payment, if any, settled (D26); a capture under way refuses the cancel. */
  private cancelBooking(ctx: Ctx, id: unknown, cause: MoveCause, allowed?: (booking: Booking) => void): Promise<Booking> {
    if (!isId(id)) throw new NotFoundError();
    return this.deps.payments.cancelHolder(ctx.em, this.lifecycle, id, cause, allowed);
  }

  private pageRequest(query: { status?: unknown; page?: unknown; per_page?: unknown }): { status?: BookingStatus; page: PageRequest } {
    const v = new Validator(query as Record<string, unknown>);
    const status = v.oneOf('status', Object.values(BookingStatus));
    const page = readPageRequest(v);
    v.done();
    return { status, page };
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
