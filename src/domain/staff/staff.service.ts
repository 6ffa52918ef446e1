import { LockMode, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import type { AuditService } from '../audit/audit.service';
import { requireStaff } from '../identity/guards';
import { STAFF_TOKEN_PREFIX } from '../identity/api-key-prefix';
import type { Actor, Ctx } from '../identity/context';
import { ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../../shared/errors';
import { claimEmail, heldElsewhere } from '../identity/email-holder';
import { isId } from '../shared/ids';
import { Page, pageRequest, paginate } from '../shared/pagination';
import { retryingTransaction } from '../shared/transaction';
import { generateToken, hashToken } from '../shared/tokens';
import { failOnDuplicate } from '../shared/unique';
import { StaffRole, StaffUser } from '../identity/staff-user.entity';
import type { CreateStaffUser, ListStaffUsers, RotateStaffToken, UpdateStaffProfile } from './staff.commands';

export interface CreatedStaffUser {
  staffUser: StaffUser;
  /** Shown once, to whoever created the user; only its hash is kept. */
  token: string;
}

/** Staff people and their tokens (D13); every change is audited. */
export class StaffService {
  constructor(private readonly deps: { audit: AuditService }) {}

  /** The operator at the command line (the first admin) or an admin. */
  async create(ctx: Ctx, { email, name, role, credentials }: CreateStaffUser): Promise<CreatedStaffUser> {
    if (ctx.actor?.kind !== 'operator') requireStaff(ctx.actor, 'createStaffUser');
    const token = generateToken(STAFF_TOKEN_PREFIX);
    const staffUser = await failOnDuplicate('email', () =>
      ctx.em.transactional(async (em) => {
        // An e-mail is one identity (D36): a client's would let its sign-in land on the desk, or the desk's in a firm.
        const holder = await claimEmail(em, email);
        if (holder && holder.kind !== 'staff') throw ValidationError.of('email', heldElsewhere(holder));
        const user = em.create(StaffUser, {
          email,
          name,
          role,
          credentials: credentials || null,
          tokenHash: hashToken(token),
        });
        this.audit(em, ctx.actor, user, 'create', { role: user.role });
        return user;
      }),
    );
    return { staffUser, token };
  }

  /** The caller (`staffMe`), as stored now. */
  async me(ctx: Ctx): Promise<StaffUser> {
    const self = requireStaff(ctx.actor, 'staffMe');
    return ctx.em.findOneOrFail(StaffUser, { id: self.id });
  }

  /** Staff people, active first, then by name; of one role when asked. */
  async list(ctx: Ctx, command: ListStaffUsers): Promise<Page<StaffUser>> {
    requireStaff(ctx.actor, 'staffUsers');
    const { role } = command;
    return paginate(ctx.em, StaffUser, role ? { role } : {}, pageRequest(command), {
      orderBy: { deactivatedAt: 'asc nulls first', name: 'asc', id: 'asc' } as never,
    });
  }

  /**
   * Name and credentials as certificates print them (D20): one's own, or anyone's for an admin. The role changes
   * only by an admin's hand (so no one grants themselves more), and never leaves the desk without an active admin.
   */
  async updateProfile(ctx: Ctx, id: unknown, { name, credentials, role }: UpdateStaffProfile): Promise<StaffUser> {
    const actor = requireStaff(ctx.actor, 'updateStaffProfile');
    if (actor.id !== id) requireStaff(ctx.actor, 'updateOtherStaffProfile');
    if (role !== undefined) requireStaff(ctx.actor, 'changeStaffRole');
    return this.change(ctx, { id }, role !== undefined && role !== StaffRole.ADMIN, (em, user, otherAdmins) => {
      if (role && role !== user.role && user.role === StaffRole.ADMIN && !user.deactivatedAt && otherAdmins === 0) {
        throw ValidationError.of('role', 'The last active admin keeps the admin role: make another admin first.');
      }
      const before = { name: user.name, credentials: user.credentials, role: user.role };
      Object.assign(user, { name, credentials: credentials || null, role: role ?? user.role });
      this.audit(em, ctx.actor, user, 'update_profile', {
        before,
        after: { name: user.name, credentials: user.credentials, role: user.role },
      });
    });
  }

  /** Admins only: the user's token answers 401 from the next request on; one cannot lock oneself out, nor the last admin. */
  async deactivate(ctx: Ctx, id: unknown): Promise<StaffUser> {
    const admin = requireStaff(ctx.actor, 'deactivateStaffUser');
    if (admin.id === id) throw ValidationError.of('id', 'You cannot deactivate yourself.');
    return this.change(ctx, { id }, true, (em, user, otherAdmins) => {
      if (user.deactivatedAt) return;
      if (user.role === StaffRole.ADMIN && otherAdmins === 0)
        throw ValidationError.of('id', 'The last active admin cannot be deactivated.');
      user.deactivatedAt = new Date();
      this.audit(em, ctx.actor, user, 'deactivate');
    });
  }

  /** A new token for the caller; the old one answers 401 at once. The new one is in this answer only. */
  async rotateOwnToken(ctx: Ctx): Promise<CreatedStaffUser> {
    const self = requireStaff(ctx.actor);
    return this.rotate(ctx, { id: self.id });
  }

  /** The command line's way back in for a locked-out admin (`staff:rotate --email E`). */
  async rotateByEmail(ctx: Ctx, { email }: RotateStaffToken): Promise<CreatedStaffUser> {
    if (!ctx.actor) throw new UnauthenticatedError();
    if (ctx.actor.kind !== 'operator') throw new ForbiddenError('Only the command line rotates by e-mail.');
    try {
      return await this.rotate(ctx, { email });
    } catch (error) {
      if (error instanceof NotFoundError) throw ValidationError.of('email', 'No staff user has this e-mail address.');
      throw error;
    }
  }

  private async rotate(ctx: Ctx, where: { id: string } | { email: string }): Promise<CreatedStaffUser> {
    const token = generateToken(STAFF_TOKEN_PREFIX);
    const staffUser = await this.change(ctx, where, false, (em, user) => {
      if (user.deactivatedAt) throw ValidationError.of('id', 'The staff user is deactivated.');
      user.tokenHash = hashToken(token);
      this.audit(em, ctx.actor, user, 'rotate_token');
    });
    return { staffUser, token };
  }

  /**
   * Locks the user and hands it to `work`. A change that may take away an admin first locks every active admin (in
   * one order, so two such changes wait for each other rather than deadlock) and counts the others: two admins
   * deactivating each other at once leave one of them standing.
   */
  private change(
    ctx: Ctx,
    where: { id: unknown } | { email: string },
    mayRemoveAdmin: boolean,
    work: (em: EntityManager, user: StaffUser, otherAdmins: number) => void,
  ): Promise<StaffUser> {
    if ('id' in where && !isId(where.id)) throw new NotFoundError();
    return retryingTransaction(ctx.em, async (em) => {
      const admins = mayRemoveAdmin
        ? await em.find(
            StaffUser,
            { role: StaffRole.ADMIN, deactivatedAt: null },
            { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true },
          )
        : [];
      const user = await em.findOne(StaffUser, where as FilterQuery<StaffUser>, {
        lockMode: LockMode.PESSIMISTIC_WRITE,
        refresh: true,
      });
      if (!user) throw new NotFoundError();
      work(em, user, admins.filter((admin) => admin.id !== user.id).length);
      await em.flush();
      return user;
    });
  }

  private audit(
    em: EntityManager,
    actor: Actor | null,
    user: StaffUser,
    action: string,
    details?: Record<string, unknown>,
  ): void {
    this.deps.audit.record(em, actor, {
      action: `staff_user.${action}`,
      resourceType: 'staff_user',
      resourceId: user.id,
      details,
    });
  }
}
