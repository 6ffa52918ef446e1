import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { lockSignInLimits } from './sign-in-limit-locks.queries';
import { TooManyAttemptsError, UnauthenticatedError, ValidationError } from '../../shared/errors';
import type { Ctx } from '../identity/context';
import { newId } from '../shared/ids';
import { generateToken, hashToken } from '../shared/tokens';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS, SESSION_ABSOLUTE_MS, SESSION_TOKEN_PREFIX } from './session-lifetime';
import { Session } from './session.entity';
import type { RequestSignInCode, SignIn } from './sign-in.commands';
import { SignInCode } from './sign-in-code.entity';
import type { EventHub } from '../shared/event-hub';
import type { SignInEvent } from './sign-in.events';

/** Someone who can sign in with a code: a member today (D27), staff later (D28). */
export interface SignInSubject {
  kind: string;
  id: string;
}

/** Where a kind of person is found by e-mail, and told that they signed in. */
export interface SignInDirectory {
  /** The live person with this e-mail (lower case), or null. */
  find(em: EntityManager, email: string): Promise<SignInSubject | null>;
  /** Called in the sign-in's transaction, after the code matched. */
  signedIn(em: EntityManager, subject: SignInSubject, at: Date): Promise<void>;
}

export interface SignedIn {
  token: string;
  expiresAt: Date;
  subject: SignInSubject;
}

/**
 * Codes asked for one e-mail from one address, and from one address in all (an office behind one address signs many
 * people in), in the window below: both count known and unknown e-mails alike. The e-mail's limit is per address
 * (D36), so a stranger asking for someone's codes never locks that person out from their own address.
 */
const LIMIT_WINDOW_MS = 15 * 60 * 1000;
const CODES_PER_EMAIL_AND_ADDRESS = 5;
const CODES_PER_ADDRESS = 60;
/** How many of an e-mail's newest unexpired codes are accepted at once (D36). */
const VALID_CODES = 3;
/** Every answer to requestSignInCode takes at least this long, so its time says nothing about the e-mail. */
export const SIGN_IN_ANSWER_MS = 400;

const WRONG_CODE = 'The code is wrong or has expired. Check it, or ask for a new one.';
const TOO_MANY_TRIES = 'Too many wrong tries: ask for a new code.';

/**
 * Sign-in without passwords (D27): a 6-digit code by e-mail, valid 10 minutes and 5 tries, traded once for an opaque
 * session token that is stored as a hash. Whoever signs in is found through the directories, so the same codes and
 * sessions can serve another kind of person.
 */
export class SignInService {
  constructor(
    private readonly deps: {
      appKey: string;
      events: EventHub<SignInEvent>;
      directories: SignInDirectory[];
      answerMs?: number;
    },
  ) {}

  /**
   * The same answer, after the same time, whether or not anyone has the e-mail: a code row is written either way
   * and only the e-mail itself is left out for a stranger, well inside the answer's fixed time.
   */
  async requestCode(ctx: Ctx, { email }: RequestSignInCode, clientAddress: string): Promise<void> {
    const answerAt = Date.now() + (this.deps.answerMs ?? SIGN_IN_ANSWER_MS);
    try {
      await ctx.em.transactional(async (em) => {
        await this.ensureUnderLimits(em, email, clientAddress);
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        // The hash is bound to the row (codeHash), so the row's id is made first.
        const id = newId();
        em.create(SignInCode, {
          id,
          email,
          codeHash: this.codeHash(id, code),
          requestedFrom: clientAddress.slice(0, 64),
          expiresAt: new Date(Date.now() + CODE_TTL_MS),
        });
        await em.flush();
        if (await this.findSubject(em, email))
          await this.deps.events.raise(em, { kind: 'code_issued', email, code, validMinutes: CODE_TTL_MS / 60_000 });
      });
    } finally {
      await sleep(Math.max(0, answerAt - Date.now()));
    }
  }

  /**
   * Trades one of the e-mail's valid codes for a session: asking for a new code does not void one already sent, so
   * any of the newest three still valid is accepted (D36). Their rows are locked, so two sign-ins with one code give
   * one session and one refusal; a wrong try is counted against each of them (and committed) before it is refused,
   * so three codes at once still allow five guesses, not fifteen.
   */
  async signIn(ctx: Ctx, { email, code }: SignIn): Promise<SignedIn> {
    const outcome = await ctx.em.transactional(async (em): Promise<SignedIn | string> => {
      const valid = await em.find(
        SignInCode,
        { email, usedAt: null, expiresAt: { $gt: new Date() } },
        { orderBy: { createdAt: 'desc' }, limit: VALID_CODES, lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const open = valid.filter((row) => row.attempts < CODE_MAX_ATTEMPTS);
      if (valid.length === 0) return WRONG_CODE;
      if (open.length === 0) return TOO_MANY_TRIES;
      const row = open.find((candidate) => this.matches(candidate, code));
      if (!row) {
        for (const candidate of open) candidate.attempts += 1;
        return open.every((candidate) => candidate.attempts >= CODE_MAX_ATTEMPTS) ? TOO_MANY_TRIES : WRONG_CODE;
      }
      const now = new Date();
      row.usedAt = now;
      const subject = await this.findSubject(em, email);
      // Nobody had the e-mail when the code was asked for, or they were removed since: the code names no one.
      if (!subject) return WRONG_CODE;
      await subject.directory.signedIn(em, subject.subject, now);
      const token = generateToken(SESSION_TOKEN_PREFIX);
      const session = em.create(Session, {
        tokenHash: hashToken(token),
        subjectKind: subject.subject.kind,
        subjectId: subject.subject.id,
        createdAt: now,
        lastUsedAt: now,
        expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
      });
      return { token, expiresAt: session.expiresAt, subject: subject.subject };
    });
    if (typeof outcome === 'string') throw ValidationError.of('code', outcome);
    return outcome;
  }

  /** Ends the caller's own session: its token answers 401 from the next request on. */
  async signOut(ctx: Ctx, sessionId: string): Promise<void> {
    const ended = await ctx.em.nativeUpdate(Session, { id: sessionId, endedAt: null }, { endedAt: new Date() });
    if (ended === 0) throw new UnauthenticatedError();
  }

  private async findSubject(
    em: EntityManager,
    email: string,
  ): Promise<{ subject: SignInSubject; directory: SignInDirectory } | null> {
    for (const directory of this.deps.directories) {
      const subject = await directory.find(em, email);
      if (subject) return { subject, directory };
    }
    return null;
  }

  /**
   * Counts, under a transaction lock on the e-mail and on the address (taken in that order by everyone, so never a
   * deadlock), so that a burst of requests at once is counted one after another, not each against the same past.
   */
  private async ensureUnderLimits(em: EntityManager, email: string, clientAddress: string): Promise<void> {
    const since = new Date(Date.now() - LIMIT_WINDOW_MS);
    await lockSignInLimits(em, email, clientAddress);
    for (const [where, limit] of [
      [{ email, requestedFrom: clientAddress }, CODES_PER_EMAIL_AND_ADDRESS],
      [{ requestedFrom: clientAddress }, CODES_PER_ADDRESS],
    ] as const) {
      const recent = await em.find(
        SignInCode,
        { ...where, createdAt: { $gt: since } },
        { fields: ['createdAt'], orderBy: { createdAt: 'desc' }, limit },
      );
      if (recent.length >= limit) {
        const resetInSeconds = Math.max(
          1,
          Math.ceil((recent[limit - 1].createdAt.getTime() + LIMIT_WINDOW_MS - Date.now()) / 1000),
        );
        throw new TooManyAttemptsError({ limit, remaining: 0, resetInSeconds });
      }
    }
  }

  /** Keyed by the application key and bound to the row: a leaked table cannot be searched through a million codes. */
  private codeHash(id: string, code: string): string {
    return createHmac('sha256', this.deps.appKey).update(`${id}:${code}`).digest('hex');
  }

  private matches(row: SignInCode, code: string): boolean {
    return timingSafeEqual(Buffer.from(row.codeHash, 'hex'), Buffer.from(this.codeHash(row.id, code), 'hex'));
  }
}
