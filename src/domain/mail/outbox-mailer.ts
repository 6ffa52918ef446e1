import type { EntityManager } from '@mikro-orm/core';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer, OutgoingEmail } from '../../providers/mail/mailer';
import { SEALED_PREFIX, type TextSeal } from '../shared/text-seal';
import { SentEmail } from './sent-email.entity';

/** What an outbox text is sealed for (the HKDF purpose): a key of its own, derived from APP_KEY. */
export const SENT_EMAIL_SEAL = 'sent-email-text';

/** Why a message waiting for delivery was withdrawn. */
export const REPLACED = 'Replaced by a later message.';

/**
 * Every message goes into the outbox (sent_emails) in the caller's transaction (D17). The sandbox stops there: the
 * message never leaves the machine and staff read it. With `delivery`, the text is sealed (a key e-mail holds the
 * key) and the same transaction queues the delivery, so the mail server is asked only once the change has
 * committed, and a change rolled back sends nothing.
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly from: string,
    private readonly delivery?: { queue: JobQueue; seal: TextSeal },
  ) {}

  async send(em: EntityManager, { replacesUnsent, ...message }: OutgoingEmail): Promise<void> {
    if (!this.delivery) {
      em.create(SentEmail, { ...message, from: this.from });
      return em.flush();
    }
    if (replacesUnsent) {
      // One already being sent may still go out: the server has it.
      await em.nativeUpdate(
        SentEmail,
        { to: message.to, kind: message.kind, deliveredAt: null, failedAt: null, text: { $like: `${SEALED_PREFIX}%` } },
        { failedAt: new Date(), failure: REPLACED, text: '' },
      );
    }
    const email = em.create(SentEmail, { ...message, from: this.from });
    email.text = this.delivery.seal.seal(message.text, email.id);
    await em.flush();
    await this.delivery.queue.enqueue(em, 'deliver-email', { emailId: email.id });
  }
}
