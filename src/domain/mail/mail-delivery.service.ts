import type { EntityManager } from '@mikro-orm/core';
import type { JobAttempt } from '../../jobs/job-queue';
import type { MailTransport } from '../../providers/mail/mailer';
import type { Logger } from '../../shared/logger';
import type { TextSeal } from '../shared/text-seal';

/**
 * How long a delivery run may hold a message before another run takes it as a dead one's: well above what one
 * attempt can last with the transport's timeouts (`smtp-transport.ts`).
 */
const CLAIM_SECONDS = 10 * 60;

/** A message nobody finished delivering within this long is given up; longer than the job's whole retry schedule. */
export const ABANDONED_AFTER_HOURS = 6;

interface Claimed {
  id: string;
  kind: string;
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** Another run of the same job holds the message; this run is retried later and finds it settled. */
class DeliveryUnderWay extends Error {}

/**
 * Production: delivers an outbox message over SMTP, after the change that wrote it has committed (D17). Run by the
 * `deliver-email` job, which retries a temporary refusal with backoff.
 */
export class MailDeliveryService {
  constructor(private readonly deps: { transport: MailTransport; seal: TextSeal; logger: Logger }) {}

  /**
   * Claims the message in one statement, asks the server with no transaction open, then records the answer in
   * another. A second run meanwhile finds the claim and is retried. The one case that sends twice is a run dying
   * between the server's acceptance and the record; the repeat carries the same Message-ID.
   */
  async deliver(em: EntityManager, emailId: string, attempt: JobAttempt): Promise<void> {
    const email = await this.claim(em, emailId);
    if (!email) return;
    const text = this.deps.seal.open(email.text);
    if (text === null) return this.giveUp(em, email, 'The message cannot be opened with the current APP_KEY or APP_KEY_PREVIOUS.');
    try {
      await this.deps.transport.deliver({ kind: email.kind, from: email.from, to: email.to, subject: email.subject, text, messageId: messageId(email) });
    } catch (error) {
      const failure = failureOf(error);
      if (isPermanent(error) || attempt.retryCount >= attempt.retryLimit) return this.giveUp(em, email, failure, error);
      await this.record(em, email.id, `failure = ?, sending_since = NULL`, [failure]);
      throw error;
    }
    await this.record(em, email.id, `delivered_at = now(), text = '', failure = NULL, sending_since = NULL`);
  }

  /**
   * Gives up every message no run finished delivering within ABANDONED_AFTER_HOURS: a job cut off on its last try (a
   * killed worker, a lost database connection) leaves its message neither delivered nor failed, with its text.
   */
  async abandonStale(em: EntityManager): Promise<number> {
    const rows: { id: string; kind: string }[] = await em.getConnection().execute(
      `UPDATE sent_emails SET failed_at = now(), text = '', sending_since = NULL, failure = coalesce(failure, 'No delivery attempt finished.')
        WHERE delivered_at IS NULL AND failed_at IS NULL AND created_at < now() - make_interval(hours => ?) RETURNING id, kind`,
      [ABANDONED_AFTER_HOURS],
    );
    for (const row of rows) this.deps.logger.error({ email_id: row.id, kind: row.kind }, 'e-mail not delivered; given up');
    return rows.length;
  }

  /** The message, now held by this run; null when it is settled (delivered, given up, withdrawn) or gone. */
  private async claim(em: EntityManager, emailId: string): Promise<Claimed | null> {
    const connection = em.getConnection();
    const [claimed] = await connection.execute<Claimed[]>(
      `UPDATE sent_emails SET sending_since = now()
        WHERE id = ? AND delivered_at IS NULL AND failed_at IS NULL AND (sending_since IS NULL OR sending_since < now() - make_interval(secs => ?))
        RETURNING id, kind, "from", "to", subject, text`,
      [emailId, CLAIM_SECONDS],
    );
    if (claimed) return claimed;
    const [pending] = await connection.execute(`SELECT 1 FROM sent_emails WHERE id = ? AND delivered_at IS NULL AND failed_at IS NULL`, [emailId]);
    if (pending) throw new DeliveryUnderWay(`e-mail ${emailId} is being delivered by another run`);
    return null;
  }

  private async giveUp(em: EntityManager, email: Claimed, failure: string, error?: unknown): Promise<void> {
    await this.record(em, email.id, `failed_at = now(), text = '', failure = ?, sending_since = NULL`, [failure]);
    this.deps.logger.error({ err: error, email_id: email.id, kind: email.kind, failure }, 'e-mail not delivered; given up');
  }

  private async record(em: EntityManager, emailId: string, assignments: string, values: unknown[] = []): Promise<void> {
    await em.getConnection().execute(`UPDATE sent_emails SET ${assignments} WHERE id = ?`, [...values, emailId]);
  }
}

/** `<id@sender's domain>`: stable for the message, unique across senders. */
function messageId(email: Claimed): string {
  const domain = /@([^>\s]+)/.exec(email.from)?.[1] ?? 'localhost';
  return `<${email.id}@${domain}>`;
}

/** The server's own reply, when it gave one (errors duck-typed: nodemailer's come from node's realm). */
function replyOf(error: unknown): { message?: unknown; responseCode?: unknown } {
  const { cause } = (error ?? {}) as { cause?: unknown };
  return ((cause ?? error) ?? {}) as { message?: unknown; responseCode?: unknown };
}

function failureOf(error: unknown): string {
  const { message } = replyOf(error);
  return typeof message === 'string' ? message : String(error);
}

/** A 5xx reply (no such mailbox, rejected): asking again would get the same answer. A 4xx or no reply may pass later. */
function isPermanent(error: unknown): boolean {
  const { responseCode } = replyOf(error);
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}
