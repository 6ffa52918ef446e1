import type { EntityManager, EntityName, FilterQuery, Rel } from '@mikro-orm/core';
import { accountOf } from '../identity/account-of';
import type { Account } from '../identity/account.entity';
import { requireStaff } from '../identity/guards';
import type { AddNote } from './desk.commands';
import type { Ctx } from '../identity/context';
import { NotFoundError } from '../../shared/errors';
import { groupedBy } from '../shared/grouped';
import { isId } from '../shared/ids';
import type { Lifecycle, Stateful } from '../lifecycle/lifecycle';
import type { StaffOperation } from '../identity/staff-permissions';
import { StaffUser } from '../identity/staff-user.entity';

/** What a desk works on: a row with a lifecycle, the number staff look it up by, and the account it belongs to. */
export type DeskRow<S extends string> = Stateful<S> & { number: string; account: { id: string } };

export interface DeskSpec<S extends string, E extends DeskRow<S>, N extends { id: string }> {
  entity: EntityName<E>;
  lifecycle: Lifecycle<S, E, string>;
  /** The rows' staff notes: their entity, those of some rows, the row a note is on, and a new one by its author. */
  notes: {
    entity: EntityName<N>;
    of: (rowIds: readonly string[]) => FilterQuery<N>;
    rowOf: (note: N) => string;
    create: (em: EntityManager, row: E, author: Rel<StaffUser>, text: string) => N;
  };
  /** Each shared operation's name in the staff permission table (D28). */
  operations: { get: StaffOperation; account: StaffOperation; notes: StaffOperation; addNote: StaffOperation };
  /** What a look-up loads with the row: what the desk shows beside it (its account, its assignee). */
  populate: readonly string[];
  /** Whether `staff` may see `row` at all; unseen, it is a 404 (a translator sees only their assignments, D28). */
  visibleTo?: (row: E, staff: StaffUser) => boolean;
}

/**
 * The staff desk around orders and bookings (D19, D28): look-ups by id or number, whose row it is, internal notes
 * (never shown to the client), and changes made to a locked row and audited through its lifecycle. Each area's desk
 * extends it with what differs: an order's assignee and notarization, a booking's list, interpreter and times.
 */
export class Desk<S extends string, E extends DeskRow<S>, N extends { id: string }> {
  constructor(private readonly spec: DeskSpec<S, E, N>) {}

  /** By id or by number (one of them); 404 when neither matches, or when the caller may not see it. */
  async get(ctx: Ctx, by: { id?: unknown; number?: unknown }): Promise<E> {
    const staff = requireStaff(ctx.actor, this.spec.operations.get);
    const where = isId(by.id)
      ? { id: by.id }
      : typeof by.number === 'string' && by.number.trim()
        ? { number: by.number.trim().toUpperCase() }
        : null;
    const row =
      where &&
      (await ctx.em.findOne(this.spec.entity, where as FilterQuery<E>, { populate: this.spec.populate as never }));
    if (!row || (this.spec.visibleTo && !this.spec.visibleTo(row, staff))) throw new NotFoundError();
    return row;
  }

  /** Whose it is; look-ups and lists load it with the row, so the identity map answers. */
  async account(ctx: Ctx, row: Pick<E, 'account'>): Promise<Account> {
    requireStaff(ctx.actor, this.spec.operations.account);
    return accountOf(ctx.em, row);
  }

  /** Each row's notes, oldest first as a conversation reads, for many rows in one statement (a desk's page). */
  async notes(ctx: Ctx, rowIds: readonly string[]): Promise<N[][]> {
    requireStaff(ctx.actor, this.spec.operations.notes);
    const { entity, of, rowOf } = this.spec.notes;
    const notes = await ctx.em.find(entity, of(rowIds), { orderBy: { createdAt: 'asc', id: 'asc' } as never });
    return groupedBy(rowIds, notes, rowOf);
  }

  /** An internal note (never shown to the client), audited on its row. */
  async addNote(ctx: Ctx, rowId: unknown, { text }: AddNote): Promise<N> {
    const author = requireStaff(ctx.actor, this.spec.operations.addNote);
    let note!: N;
    await this.change(ctx, rowId, async (em, row) => {
      note = this.spec.notes.create(em, row, em.getReference(StaffUser, author.id), text);
      em.persist(note);
      await this.spec.lifecycle.record(
        em,
        row,
        row.status,
        { actor: ctx.actor, action: 'add_note' },
        { note_id: note.id },
      );
    });
    return note;
  }

  /** Runs `work` on the row locked in a transaction of its own, and writes what it changed; 404 when there is no such row. */
  protected change(ctx: Ctx, rowId: unknown, work: (em: EntityManager, row: E) => Promise<void>): Promise<E> {
    if (!isId(rowId)) throw new NotFoundError();
    return this.spec.lifecycle.change(ctx.em, { id: rowId } as FilterQuery<E>, async (em, row) => {
      await work(em, row);
      await em.flush();
    });
  }
}
