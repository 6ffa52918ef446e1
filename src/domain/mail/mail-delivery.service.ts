import type { EntityManager } from '@mikro-orm/core';
import {
  claimEmail,
  giveUpUnsettled,
  isUnsettled,
  recordDelivered,
  recordDeliveredAnyway,
  recordGivenUp,
  recordRetry,
  unsettledSince,
  type ClaimedEmail,
} from './mail-outbox.queries';
import type { JobAttempt, JobQueue } from '../../jobs/job-queue';
import type { MailTransport } from '../../providers/mail/mailer';
import type { Logger } from '../../shared/logger';
import { SEALED_PREFIX, type TextSeal } from '../shared/text-seal';

/**
 * How long a delivery run may hold a message before another run may take it: well above what one attempt lasts
 * with the transport's timeouts (`smtp-transport.ts`), short of the job's later retries.
 */
const CLAIM_SECONDS = 10 * 60;

/** A message still unsettled this long after it was written, with no delivery job left to run, is given up. */
export const ABANDONED_AFTER_HOURS = 1;

/** Another run of the same job holds the message; this run is retried later and finds it settled. */
class DeliveryUnderWay extends Error {}

/**
 * Production: delivers an outbox message over SMTP, after the change that wrote it has committed (D17). Run by the
 * `deliver-email` job, which retries with backoff.
 */
export class MailDeliveryService {
  constructor(private readonly deps: { transport: MailTransport; seal: TextSeal; queue: JobQueue; logger: Logger }) {}

  /**
   * Claims the message in one statement, asks the server with no transaction open, then records the answer in
   * another, if the claim still holds: a message withdrawn or given up meanwhile keeps why, and a run that took a
   * lapsed claim over is not overwritten. A run that finds the message claimed is retried.
   */
  async deliver(em: EntityManager, emailId: string, attempt: JobAttempt): Promise<void> {
    const email = await this.claim(em, emailId);
    if (!email) return;
    const lastTry = attempt.retryCount >= attempt.retryLimit;
    const text = this.deps.seal.open(email.text, email.id);
    if (text === null) {
      // Sealed under an APP_KEY this process does not have yet (a rotation under way) or no longer has.
      const failure = "The message does not open with this process's APP_KEY or APP_KEY_PREVIOUS.";
      return lastTry ? this.giveUp(em, email, failure) : this.retryLater(em, email, failure, new Error(failure));
    }
    try {
      await this.deps.transport.deliver({
        kind: email.kind,
        from: email.from,
        to: email.to,
        subject: email.subject,
        text,
        messageId: messageId(email),
      });
    } catch (error) {
      const failure = failureOf(error);
      return lastTry || isPermanent(error)
        ? this.giveUp(em, email, failure, error)
        : this.retryLater(em, email, failure, error);
    }
    // Withdrawn, given up or taken over while the server had it: it went out all the same, and that is kept too.
    if (!(await recordDelivered(em, email))) await recordDeliveredAnyway(em, email.id);
  }

  /**
   * Gives up every message still unsettled ABANDONED_AFTER_HOURS after it was written whose delivery job has ended
   * (cut off on its last try: a killed worker, a lost database connection), so no text is left behind.
   */
  async abandonStale(em: EntityManager): Promise<number> {
    const ids = await unsettledSince(em, SEALED_PREFIX, ABANDONED_AFTER_HOURS);
    if (!ids.length) return 0;
    const running = await this.deps.queue.unfinished('deliver-email', 'emailId', ids);
    const ended = ids.filter((id) => !running.has(id));
    if (!ended.length) return 0;
    const rows = await giveUpUnsettled(em, ended);
    for (const row of rows)
      this.deps.logger.error({ email_id: row.id, kind: row.kind }, 'e-mail not delivered; given up');
    return rows.length;
  }

  /** The message, now held by this run; null when it is settled (delivered, given up, withdrawn) or gone. */
  private async claim(em: EntityManager, emailId: string): Promise<ClaimedEmail | null> {
    const claimed = await claimEmail(em, emailId, CLAIM_SECONDS);
    if (claimed) return claimed;
    if (await isUnsettled(em, emailId))
      throw new DeliveryUnderWay(`e-mail ${emailId} is being delivered by another run`);
    return null;
  }

  /** Notes why and lets the job run again (throws `error`), unless the message was settled meanwhile. */
  private async retryLater(em: EntityManager, email: ClaimedEmail, failure: string, error: unknown): Promise<void> {
    if (await recordRetry(em, email, failure)) throw error;
  }

  private async giveUp(em: EntityManager, email: ClaimedEmail, failure: string, error?: unknown): Promise<void> {
    if (!(await recordGivenUp(em, email, failure))) return;
    this.deps.logger.error(
      { err: error, email_id: email.id, kind: email.kind, failure },
      'e-mail not delivered; given up',
    );
  }
}

/** `<id@sender's domain>`: stable for the message, unique across senders. */
function messageId(email: ClaimedEmail): string {
  const domain = /@([^>\s]+)/.exec(email.from)?.[1] ?? 'localhost';
  return `<${email.id}@${domain}>`;
}

/** nodemailer's error, or the one the transport wrapped around it (duck-typed: it comes from node's realm). */
function smtpErrorOf(error: unknown): { message?: unknown; responseCode?: unknown; command?: unknown } {
  const { cause } = (error ?? {}) as { cause?: unknown };
  return cause ?? error ?? {};
}

function failureOf(error: unknown): string {
  const { message } = smtpErrorOf(error);
  return typeof message === 'string' ? message : String(error);
}

/**
 * The server refused this recipient or this message (a 5xx to RCPT TO or DATA): asking again gets the same answer.
 * A 5xx elsewhere (a wrong password, a refused sender) is the deployment's to fix, and is retried meanwhile.
 */
function isPermanent(error: unknown): boolean {
  const { responseCode, command } = smtpErrorOf(error);
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    (command === 'RCPT TO' || command === 'DATA')
  );
}
