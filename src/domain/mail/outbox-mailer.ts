import type { EntityManager } from '@mikro-orm/core';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer, OutgoingEmail } from '../../providers/mail/mailer';
import { SentEmail } from './sent-email.entity';

/**
 * Every message goes into the outbox (sent_emails) in the caller's transaction (D17). The sandbox stops there: the
 * message never leaves the machine and staff read it. With `delivery`, the same transaction queues its delivery, so
 * the mail server is asked only once the change has committed, and a change rolled back sends nothing.
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly from: string,
    private readonly delivery?: { queue: JobQueue },
  ) {}

  async send(em: EntityManager, message: OutgoingEmail): Promise<void> {
    const email = Object.assign(new SentEmail(), { ...message, from: this.from });
    em.persist(email);
    await em.flush();
    await this.delivery?.queue.enqueue(em, 'deliver-email', { emailId: email.id });
  }
}
