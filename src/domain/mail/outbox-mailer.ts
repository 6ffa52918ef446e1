import type { EntityManager } from '@mikro-orm/core';
import type { Mailer, OutgoingEmail } from '../../providers/mail/mailer';
import { SentEmail } from './sent-email.entity';

/** Sandbox: every message is kept in the outbox (sent_emails) and never leaves the machine (D17); staff read it. */
export class OutboxMailer implements Mailer {
  constructor(private readonly from: string) {}

  async send(em: EntityManager, message: OutgoingEmail): Promise<void> {
    em.persist(Object.assign(new SentEmail(), { ...message, from: this.from }));
    await em.flush();
  }
}
