import { LockMode } from '@mikro-orm/core';
import type { AuditService } from '../audit/audit.service';
import { requireStaff } from '../identity/guards';
import type { Ctx } from '../identity/context';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isId } from '../shared/ids';
import { pageRequest, type Page } from '../shared/pagination';
import { retryingTransaction } from '../shared/transaction';
import { failOnDuplicate } from '../shared/unique';
import { readInterpreterPage } from './interpreter-availability.queries';
import type { CreateInterpreter, ListInterpreters, UpdateInterpreter } from './interpreter.commands';
import { Booking } from './booking.entity';
import { Interpreter } from './interpreter.entity';
import { requirementsOf } from './interpreter-rules';

/** What the audit keeps of a record, before and after a change (the e-mail included: staff read it). */
const recorded = (interpreter: Interpreter) => ({
  name: interpreter.name,
  email: interpreter.email,
  languages: interpreter.languages,
  modes: interpreter.modes,
  qualifications: interpreter.qualifications,
  credentials: interpreter.credentials,
  active: interpreter.active,
});

/** The interpreters the desk keeps (D32): searched by who qualifies and is free, created and changed, each change audited. */
export class InterpreterService {
  constructor(private readonly deps: { audit: AuditService; baseLanguage: string }) {}

  /**
   * Interpreters by name who speak `language`, work in `mode`, hold `qualification` and are free at `availableAt`;
   * with `bookingId`, the active ones who may be confirmed for that booking (the rules of D32, its own time left out,
   * the other filters unused). Only active ones unless `includeInactive`, for the records screen.
   */
  async list(ctx: Ctx, command: ListInterpreters): Promise<Page<Interpreter>> {
    requireStaff(ctx.actor, 'interpreters');
    const { language, mode, qualification, availableAt, durationHours, bookingId, includeInactive } = command;
    if (bookingId) {
      const booking = await ctx.em.findOne(Booking, { id: bookingId });
      if (!booking) throw ValidationError.of('booking_id', 'No booking has this id.');
      const needs = requirementsOf(booking, this.deps.baseLanguage);
      const freeAt = { start: booking.scheduledAt, durationHundredths: booking.durationHundredths };
      return readInterpreterPage(
        ctx.em,
        { ...needs, mode: booking.mode, freeAt, exceptBookingId: booking.id },
        pageRequest(command),
      );
    }
    const freeAt = availableAt && { start: availableAt.date, durationHundredths: durationHours! };
    const filter = {
      includeInactive,
      languages: language ? [language] : [],
      mode,
      qualifications: qualification ? [qualification] : [],
      freeAt,
    };
    return readInterpreterPage(ctx.em, filter, pageRequest(command));
  }

  async create(ctx: Ctx, command: CreateInterpreter): Promise<Interpreter> {
    requireStaff(ctx.actor, 'createInterpreter');
    return failOnDuplicate('email', () =>
      ctx.em.transactional(async (em) => {
        const interpreter = em.create(Interpreter, {
          ...command,
          qualifications: command.qualifications ?? [],
          credentials: command.credentials || null,
          active: command.active ?? true,
        });
        this.audit(ctx, em, interpreter, 'create', { after: recorded(interpreter) });
        return interpreter;
      }),
    );
  }

  /** What the command gives changes, the rest stays; an inactive interpreter is confirmed for no new booking. */
  async update(ctx: Ctx, id: unknown, command: UpdateInterpreter): Promise<Interpreter> {
    requireStaff(ctx.actor, 'updateInterpreter');
    if (!isId(id)) throw new NotFoundError();
    return failOnDuplicate('email', () =>
      retryingTransaction(ctx.em, async (em) => {
        const interpreter = await em.findOne(Interpreter, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!interpreter) throw new NotFoundError();
        const before = recorded(interpreter);
        const given = Object.fromEntries(Object.entries(command).filter(([, value]) => value !== undefined));
        Object.assign(interpreter, given);
        this.audit(ctx, em, interpreter, 'update', { before, after: recorded(interpreter) });
        return interpreter;
      }),
    );
  }

  private audit(
    ctx: Ctx,
    em: Parameters<AuditService['record']>[0],
    interpreter: Interpreter,
    action: string,
    details: Record<string, unknown>,
  ): void {
    this.deps.audit.record(em, ctx.actor, {
      action: `interpreter.${action}`,
      resourceType: 'interpreter',
      resourceId: interpreter.id,
      details,
    });
  }
}
