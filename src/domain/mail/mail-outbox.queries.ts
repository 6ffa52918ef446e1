import type { EntityManager } from '@mikro-orm/core';
import { runSql } from '../../db/orm-driver';

/** An outbox message a delivery run holds (D17). */
export interface ClaimedEmail {
  id: string;
  kind: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  /** The claim's own `sending_since`, as PostgreSQL wrote it: the answer is recorded only while it still holds. */
  claim: string;
}

/**
 * Takes an unsettled message for this run, in one statement: unless another run's claim, younger than
 * `claimSeconds`, holds it. None when it is settled, gone or held.
 */
export async function claimEmail(
  em: EntityManager,
  emailId: string,
  claimSeconds: number,
): Promise<ClaimedEmail | undefined> {
  const [claimed] = await runSql<ClaimedEmail>(
    em,
    `UPDATE sent_emails SET sending_since = clock_timestamp()
      WHERE id = ? AND delivered_at IS NULL AND failed_at IS NULL AND (sending_since IS NULL OR sending_since < now() - make_interval(secs => ?))
      RETURNING id, kind, "from", "to", subject, text, sending_since::text AS claim`,
    [emailId, claimSeconds],
  );
  return claimed;
}

/** Whether the message is still unsettled (neither delivered nor given up). */
export async function isUnsettled(em: EntityManager, emailId: string): Promise<boolean> {
  return (
    (
      await runSql(em, `SELECT 1 FROM sent_emails WHERE id = ? AND delivered_at IS NULL AND failed_at IS NULL`, [
        emailId,
      ])
    ).length > 0
  );
}

/** Applies `assignments` while `email`'s claim holds; false when it no longer does. */
async function whileClaimed(
  em: EntityManager,
  email: ClaimedEmail,
  assignments: string,
  values: unknown[] = [],
): Promise<boolean> {
  const rows = await runSql(
    em,
    `UPDATE sent_emails SET ${assignments} WHERE id = ? AND sending_since = ?::timestamptz AND failed_at IS NULL RETURNING id`,
    [...values, email.id, email.claim],
  );
  return rows.length > 0;
}

/** Delivered: the text is dropped. False when the claim no longer holds. */
export const recordDelivered = (em: EntityManager, email: ClaimedEmail): Promise<boolean> =>
  whileClaimed(em, email, `delivered_at = now(), text = '', failure = NULL, sending_since = NULL`);

/** Not delivered this time, for `failure`: the claim is let go for the next try. False when it no longer held. */
export const recordRetry = (em: EntityManager, email: ClaimedEmail, failure: string): Promise<boolean> =>
  whileClaimed(em, email, `failure = ?, sending_since = NULL`, [failure]);

/** Given up, for `failure`: the text is dropped. False when the claim no longer held. */
export const recordGivenUp = (em: EntityManager, email: ClaimedEmail, failure: string): Promise<boolean> =>
  whileClaimed(em, email, `failed_at = now(), text = '', failure = ?, sending_since = NULL`, [failure]);

/** Delivered after all, whatever settled it meanwhile (withdrawn, given up, taken over): kept, its text dropped. */
export async function recordDeliveredAnyway(em: EntityManager, emailId: string): Promise<void> {
  await runSql(em, `UPDATE sent_emails SET delivered_at = coalesce(delivered_at, now()), text = '' WHERE id = ?`, [
    emailId,
  ]);
}

/** The messages, still sealed (`sealedPrefix`), unsettled `hours` after they were written. */
export async function unsettledSince(em: EntityManager, sealedPrefix: string, hours: number): Promise<string[]> {
  const rows = await runSql<{ id: string }>(
    em,
    `SELECT id FROM sent_emails WHERE delivered_at IS NULL AND failed_at IS NULL AND text LIKE ? AND created_at < now() - make_interval(hours => ?)`,
    [`${sealedPrefix}%`, hours],
  );
  return rows.map((row) => row.id);
}

/** Gives up those of `ids` still unsettled, keeping a failure already noted: the ones given up. */
export function giveUpUnsettled(em: EntityManager, ids: string[]): Promise<{ id: string; kind: string }[]> {
  return runSql<{ id: string; kind: string }>(
    em,
    `UPDATE sent_emails SET failed_at = now(), text = '', sending_since = NULL, failure = coalesce(failure, 'No delivery attempt finished.')
      WHERE id IN (${ids.map(() => '?').join(', ')}) AND delivered_at IS NULL AND failed_at IS NULL RETURNING id, kind`,
    ids,
  );
}
