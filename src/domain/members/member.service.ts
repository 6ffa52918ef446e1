import { LockMode, type EntityManager } from '@mikro-orm/core';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../../shared/errors';
import { Account, AccountStatus } from '../identity/account.entity';
import { requireAccount, requireStaff } from '../identity/guards';
import type { AuditService } from '../audit/audit.service';
import type { AccountActor, Ctx } from '../identity/context';
import { claimEmail, heldElsewhere } from '../identity/email-holder';
import { isId } from '../shared/ids';
import { Page, pageRequest, paginate } from '../shared/pagination';
import type { SignInDirectory, SignInSubject } from '../sign-in/sign-in.service';
import { Session } from '../sign-in/session.entity';
import type { InviteMember, ListMembers, UpdateMemberRole } from './member.commands';
import { AccountMember, MEMBER_SUBJECT, MemberRole, MemberStatus } from '../identity/member.entity';
import type { EventHub } from '../shared/event-hub';
import type { MemberEvent } from './member.events';

const LIVE = { $ne: MemberStatus.REMOVED } as const;

/** D36: one answer for every e-mail that another identity holds, so an invitation tells nothing about other accounts. */
export const NOT_INVITABLE = 'This person cannot be invited; ask them to contact us.';

/**
 * People at client accounts (D27): admins list, invite, re-role and remove them. Every change locks the account row
 * first, so two admins acting at once are serialised: two admins removing each other leave one admin.
 */
export class MemberService implements SignInDirectory {
  constructor(private readonly deps: { events: EventHub<MemberEvent>; audit: AuditService }) {}

  async list(ctx: Ctx, command: ListMembers): Promise<Page<AccountMember>> {
    const account = requireAccount(ctx.actor, 'members.read');
    return paginate(ctx.em, AccountMember, { account, status: LIVE }, pageRequest(command), {
      orderBy: { createdAt: 'asc', id: 'asc' },
    });
  }

  /** Staff (the console's accounts screen): the members of any account, as its admins see them. */
  async listOfAccount(ctx: Ctx, accountId: unknown, command: ListMembers): Promise<Page<AccountMember>> {
    requireStaff(ctx.actor, 'accountMembers');
    if (!isId(accountId)) throw new NotFoundError();
    const account = await ctx.em.findOne(Account, { id: accountId });
    if (!account) throw new NotFoundError();
    return paginate(ctx.em, AccountMember, { account, status: LIVE }, pageRequest(command), {
      orderBy: { createdAt: 'asc', id: 'asc' },
    });
  }

  /**
   * Invites someone, the invitation raised to be e-mailed; the invitee signs in with a code sent to the same address.
   * An e-mail that is already someone else's identity (staff, a member elsewhere, another account's e-mail) is refused
   * with the answer any invitation that cannot be sent gets, which says nothing about other accounts (D36).
   */
  async invite(ctx: Ctx, { email, name, role }: InviteMember): Promise<AccountMember> {
    requireAccount(ctx.actor, 'members.manage');
    return this.asAdmin(ctx, async (em, account, actor) => {
      const holder = await claimEmail(em, email);
      if (holder?.kind === 'member' && holder.accountId === account.id)
        throw ValidationError.of('email', 'This e-mail is already a member of the account.');
      // The account's own e-mail (its first admin since removed) may come back; anyone else's identity may not.
      if (holder && !(holder.kind === 'account' && holder.accountId === account.id))
        throw ValidationError.of('email', NOT_INVITABLE);
      const member = em.create(AccountMember, { account, email, name, role });
      await em.flush();
      await this.deps.events.raise(em, { kind: 'invited', account, member, invitedBy: actor.member!.name });
      this.deps.audit.record(em, actor, {
        action: 'member.invite',
        resourceType: 'member',
        resourceId: member.id,
        toState: member.role,
        details: { email: member.email },
      });
      return member;
    });
  }

  async updateRole(ctx: Ctx, id: unknown, { role }: UpdateMemberRole): Promise<AccountMember> {
    requireAccount(ctx.actor, 'members.manage');
    return this.asAdmin(ctx, async (em, account, actor) => {
      const member = await this.liveMember(em, account, id);
      const from = member.role;
      if (from === MemberRole.ADMIN && role !== MemberRole.ADMIN)
        await this.keepAnAdmin(em, account, 'role', 'The last admin cannot be demoted.');
      member.role = role;
      this.deps.audit.record(em, actor, {
        action: 'member.role',
        resourceType: 'member',
        resourceId: member.id,
        fromState: from,
        toState: role,
      });
      return member;
    });
  }

  /** The member's sessions end with it: 401 from their next request. */
  async remove(ctx: Ctx, id: unknown): Promise<AccountMember> {
    requireAccount(ctx.actor, 'members.manage');
    return this.asAdmin(ctx, async (em, account, actor) => {
      const member = await this.liveMember(em, account, id);
      if (member.role === MemberRole.ADMIN)
        await this.keepAnAdmin(em, account, 'id', 'The last admin cannot be removed.');
      const from = member.status;
      member.status = MemberStatus.REMOVED;
      member.removedAt = new Date();
      await em.nativeUpdate(
        Session,
        { subjectKind: MEMBER_SUBJECT, subjectId: member.id, endedAt: null },
        { endedAt: member.removedAt },
      );
      this.deps.audit.record(em, actor, {
        action: 'member.remove',
        resourceType: 'member',
        resourceId: member.id,
        fromState: from,
        toState: member.status,
      });
      return member;
    });
  }

  async find(em: EntityManager, email: string): Promise<SignInSubject | null> {
    const member = await em.findOne(
      AccountMember,
      { email, status: LIVE, account: { status: AccountStatus.APPROVED } },
      { fields: ['id'] },
    );
    return member && { kind: MEMBER_SUBJECT, id: member.id };
  }

  async signedIn(em: EntityManager, subject: SignInSubject, at: Date): Promise<void> {
    const member = await em.findOneOrFail(AccountMember, { id: subject.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    member.lastSignInAt = at;
    if (member.status === MemberStatus.INVITED) member.status = MemberStatus.ACTIVE;
  }

  /**
   * Runs a change of people with the account row locked, after checking that the caller is still a live admin: an
   * admin removed or demoted by a request that committed first is refused here (401 removed, 403 demoted).
   */
  private asAdmin<T>(
    ctx: Ctx,
    work: (em: EntityManager, account: Account, actor: AccountActor) => Promise<T>,
  ): Promise<T> {
    const actor = ctx.actor as AccountActor;
    return ctx.em.transactional(async (em) => {
      const account = await em.findOneOrFail(
        Account,
        { id: actor.accountId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const self = await em.findOne(AccountMember, { id: actor.member!.id, status: LIVE }, { refresh: true });
      if (!self) throw new UnauthenticatedError();
      requireAccount({ ...actor, member: { ...actor.member!, role: self.role } }, 'members.manage');
      return work(em, account, actor);
    });
  }

  /** Another account's member, a removed one, and a malformed id all look alike: 404. */
  private async liveMember(em: EntityManager, account: Account, id: unknown): Promise<AccountMember> {
    if (!isId(id)) throw new NotFoundError();
    const member = await em.findOne(AccountMember, { id, account, status: LIVE });
    if (!member) throw new NotFoundError();
    return member;
  }

  private async keepAnAdmin(em: EntityManager, account: Account, field: string, message: string): Promise<void> {
    const admins = await em.count(AccountMember, { account, role: MemberRole.ADMIN, status: LIVE });
    if (admins <= 1) throw ValidationError.of(field, message);
  }
}

/**
 * Approval makes the account's e-mail its first admin (D27). An e-mail that became someone else's identity since the
 * account was created (legacy rows: invitations are refused for it now) is refused to staff with the reason (D36),
 * never skipped: an account approved without its admin would leave its owner signing in elsewhere.
 */
export async function addFirstAdmin(em: EntityManager, account: Account): Promise<void> {
  const holder = await claimEmail(em, account.email);
  if (holder?.kind === 'member' && holder.accountId === account.id) return;
  if (holder && !(holder.kind === 'account' && holder.accountId === account.id))
    throw ValidationError.of('email', heldElsewhere(holder));
  em.create(AccountMember, { account, email: account.email, name: account.name, role: MemberRole.ADMIN });
}
