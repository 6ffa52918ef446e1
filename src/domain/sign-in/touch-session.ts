import type { EntityManager } from '@mikro-orm/core';
import { SESSION_TOUCH_MS } from './session-lifetime';
import { Session } from './session.entity';

/**
 * Marks a session used (D27), at most once a minute: a session used all day costs one write a minute, not one a
 * request. The write runs outside the caller's unit of work, so a read stays a read.
 */
export async function touchSession(em: EntityManager, session: { id: string; lastUsedAt: Date }): Promise<void> {
  if (Date.now() - session.lastUsedAt.getTime() > SESSION_TOUCH_MS)
    await em.fork().nativeUpdate(Session, { id: session.id }, { lastUsedAt: new Date() });
}
