import type { EntityManager } from '@mikro-orm/core';
import { SentEmail } from '../../domain/mail/sent-email.entity';
import type { Mailer, OutgoingEmail } from './mailer';

/** Sandbox: every message is kept in the sent_emails table and never leaves the machine (D17). */
export class OutboxMailer implements Mailer {
  constructor(private readonly from: string) {}

  async send(em: EntityManager, message: OutgoingEmail): Promise<void> {
    em.persist(Object.assign(new SentEmail(), { ...message, from: this.from }));
    await em.flush();
  }
}
