import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { JobAttempt } from '../../jobs/job-queue';
import type { MailTransport } from '../../providers/mail/mailer';
import type { Logger } from '../../shared/logger';
import { SentEmail } from './sent-email.entity';

/**
 * Production: delivers an outbox message over SMTP, after the change that wrote it has committed (D17). Run by the
 * `deliver-email` job, which retries a refusal with backoff.
 */
export class MailDeliveryService {
  constructor(private readonly deps: { transport: MailTransport; logger: Logger }) {}

  /**
   * The message's row stays locked while the server is asked, so a second run of the same job (a lapsed lease)
   * waits and then finds it delivered: one message, once, unless the process dies between the server's acceptance
   * and the commit. Then it goes again with the same Message-ID, which receivers use to drop the repeat.
   */
  async deliver(em: EntityManager, emailId: string, attempt: JobAttempt): Promise<void> {
    // A refusal to retry is noted on the row and committed, then thrown, so the job is run again later.
    const retry = await em.transactional(async (tx) => {
      const email = await tx.findOne(SentEmail, { id: emailId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!email || email.deliveredAt || email.failedAt) return null;
      try {
        const { kind, from, to, subject, text } = email;
        await this.deps.transport.deliver({ kind, from, to, subject, text, messageId: messageId(email) });
      } catch (error) {
        email.failure = failureOf(error);
        if (attempt.retryCount < attempt.retryLimit) return error;
        // Given up: the text goes, as on delivery (a key e-mail holds the key); staff can issue a new key.
        Object.assign(email, { failedAt: new Date(), text: '' });
        this.deps.logger.error({ err: error, email_id: email.id, kind: email.kind }, 'e-mail not delivered; retries exhausted');
        return null;
      }
      Object.assign(email, { deliveredAt: new Date(), text: '', failure: null });
      return null;
    });
    if (retry) throw retry;
  }
}

/** What the server said, rather than the provider error wrapped around it (duck-typed: errors of other realms too). */
function failureOf(error: unknown): string {
  const { cause } = (error ?? {}) as { cause?: unknown };
  const said = (cause ?? error) as { message?: unknown };
  return typeof said?.message === 'string' ? said.message : String(said);
}

/** `<id@sender's domain>`: stable for the message, unique across senders. */
function messageId(email: SentEmail): string {
  const domain = /@([^>\s]+)/.exec(email.from)?.[1] ?? 'localhost';
  return `<${email.id}@${domain}>`;
}
