import type { EntityManager } from '@mikro-orm/core';
import type { StaffActor } from '../identity/context';
import { SESSION_IDLE_MS } from '../sign-in/session-lifetime';
import { touchSession } from '../sign-in/touch-session';
import { Session } from '../sign-in/session.entity';
import type { SignInDirectory, SignInSubject } from '../sign-in/sign-in.service';
import { StaffUser } from '../identity/staff-user.entity';

/** What a staff member's session names as its subject (docs/decisions.md D28). */
export const STAFF_SUBJECT = 'staff';

/**
 * Staff sign in with the members' codes and sessions (D28): the same limits, lifetimes and hashing, a session whose
 * subject is the staff user. A deactivated staff member's sessions answer 401 from that moment, like their token.
 */
export class StaffSessions implements SignInDirectory {
  async find(em: EntityManager, email: string): Promise<SignInSubject | null> {
    const staff = await em.findOne(StaffUser, { email, deactivatedAt: null }, { fields: ['id'] });
    return staff && { kind: STAFF_SUBJECT, id: staff.id };
  }

  /** Staff have no invitation to settle: the session itself records the sign-in. */
  async signedIn(): Promise<void> {}

  /** The actor of a live staff session's token hash, and marks the session used. */
  async resolve(em: EntityManager, tokenHash: string): Promise<StaffActor | null> {
    const now = Date.now();
    const session = await em.findOne(
      Session,
      {
        tokenHash,
        subjectKind: STAFF_SUBJECT,
        endedAt: null,
        expiresAt: { $gt: new Date(now) },
        lastUsedAt: { $gt: new Date(now - SESSION_IDLE_MS) },
      },
      { fields: ['id', 'subjectId', 'lastUsedAt'] },
    );
    const staff = session && (await em.findOne(StaffUser, { id: session.subjectId, deactivatedAt: null }));
    if (!session || !staff) return null;
    await touchSession(em, session);
    return { kind: 'staff', staff, sessionId: session.id };
  }
}
