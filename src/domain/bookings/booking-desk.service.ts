import { ValidationError } from '../../shared/errors';
import { requireStaff } from '../identity/guards';
import { InterpretationRate } from '../catalog/rates.entity';
import { Desk } from '../desk/desk';
import type { Ctx } from '../identity/context';
import type { EventHub } from '../shared/event-hub';
import { Page, pageRequest } from '../shared/pagination';
import { readStaffBookingPage } from './staff-booking-queue.queries';
import { BookingNote } from './booking-note.entity';
import type { StaffBookingRead } from './booking-read';
import { Booking, BookingStatus } from './booking.entity';
import type { BookingActivity } from './booking-activity';
import type { BookingLifecycle } from './booking.lifecycle';
import type { AssignInterpreter, RescheduleBooking, StaffBookings } from './booking.commands';
import { priceHours } from './booking-price';
import { assertInterpreterFree } from './interpreter-time';

/**
 * The booking desk of D28, as good as the order desk: the shared desk (look-up, account, notes), a list filtered and
 * paginated in the database, the interpreter's name, and reschedules the client hears of. Audited.
 */
export class BookingDeskService extends Desk<BookingStatus, Booking, BookingNote> {
  constructor(private readonly deps: { lifecycle: BookingLifecycle; events: EventHub<BookingActivity> }) {
    super({
      entity: Booking,
      lifecycle: deps.lifecycle,
      notes: {
        entity: BookingNote,
        of: (bookingIds) => ({ booking: { $in: [...bookingIds] } }),
        rowOf: (note) => note.booking.id,
        create: (em, booking, author, text) => em.create(BookingNote, { booking, author, text }),
      },
      operations: {
        get: 'staffInterpretationBooking',
        account: 'InterpretationBooking.account',
        notes: 'InterpretationBooking.notes',
        addNote: 'addBookingNote',
      },
      populate: ['account'],
    });
  }

  /**
   * Every account's bookings, soonest first, by status, account, a window of start times (`from` inclusive, `to`
   * exclusive) and `search` in the number, the reference or the account's name
   * (`src/domain/bookings/staff-booking-queue.queries.ts`).
   */
  async list(ctx: Ctx, command: StaffBookings): Promise<Page<StaffBookingRead>> {
    requireStaff(ctx.actor, 'staffInterpretationBookings');
    const { status, accountId, search } = command;
    return readStaffBookingPage(
      ctx.em,
      { status, accountId, search, from: command.from?.date, to: command.to?.date },
      pageRequest(command),
    );
  }

  /** The interpreter who will attend, by name (free text: interpreters are not users yet); null clears it. */
  async assignInterpreter(ctx: Ctx, bookingId: unknown, command: AssignInterpreter): Promise<Booking> {
    requireStaff(ctx.actor, 'assignInterpreter');
    return this.change(ctx, bookingId, async (em, booking) => {
      this.deps.lifecycle.assertAction(booking, 'assign_interpreter');
      const before = booking.interpreterName;
      booking.interpreterName = command.interpreterName || null;
      await this.deps.lifecycle.record(
        em,
        booking,
        booking.status,
        { actor: ctx.actor, action: 'assign_interpreter' },
        { from: before, to: booking.interpreterName },
      );
    });
  }

  /**
   * A new start time, never in the past, and the client e-mailed (D28). The duration, and with it the price,
   * changes only while nothing is asked for payment yet (requested): once a checkout exists its amount is fixed.
   * Two reschedules, or a reschedule and a payment, take the booking's lock in turn: each is applied whole.
   */
  async reschedule(ctx: Ctx, bookingId: unknown, command: RescheduleBooking): Promise<Booking> {
    requireStaff(ctx.actor, 'rescheduleInterpretationBooking');
    const { scheduledAt, durationHours: duration } = command;
    return this.change(ctx, bookingId, async (em, booking) => {
      this.deps.lifecycle.assertAction(booking, 'reschedule');
      const before = {
        scheduled_at: booking.scheduledAt.toISOString(),
        duration_hours: booking.durationHundredths / 100,
        total_cents: booking.totalCents,
      };
      const previousStart = {
        scheduledAt: booking.scheduledAt,
        scheduledOffsetMinutes: booking.scheduledOffsetMinutes,
      };
      const durationChanges = duration !== undefined && duration !== booking.durationHundredths;
      // The client is e-mailed a change: a start it already has, with nothing else changed, is none (D28).
      if (!durationChanges && scheduledAt.date.getTime() === booking.scheduledAt.getTime())
        throw ValidationError.of('scheduled_at', 'The booking already starts then: choose another start.');
      if (durationChanges) {
        this.deps.lifecycle.assertAction(booking, 'change_duration');
        const rate = await em.findOneOrFail(InterpretationRate, { mode: booking.mode });
        Object.assign(
          booking,
          { durationHundredths: duration },
          priceHours(duration, rate.minimumHours, booking.unitPriceCents, booking.currency),
        );
      }
      Object.assign(booking, { scheduledAt: scheduledAt.date, scheduledOffsetMinutes: scheduledAt.offsetMinutes });
      await assertInterpreterFree(em, booking);
      const after = {
        scheduled_at: booking.scheduledAt.toISOString(),
        duration_hours: booking.durationHundredths / 100,
        total_cents: booking.totalCents,
      };
      await this.deps.lifecycle.record(
        em,
        booking,
        booking.status,
        { actor: ctx.actor, action: 'reschedule' },
        { before, after },
      );
      await this.deps.events.raise(em, { kind: 'rescheduled', booking, previousStart });
    });
  }
}
