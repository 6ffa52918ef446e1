import type { EntityManager } from '@mikro-orm/core';

export interface OutgoingEmail {
  /** What the message is about (api_key, order_on_hold, ...), for the outbox and for logs. */
  kind: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * What the domain sends e-mail through (D17). A message is recorded in the caller's transaction, so it exists exactly
 * when the change that sent it commits; it leaves the machine (in production) only after that, never inside it.
 */
export interface Mailer {
  send(em: EntityManager, message: OutgoingEmail): Promise<void>;
}

/** A message as it goes on the wire: `messageId` is the same on every attempt, so a receiver can drop a repeat. */
export interface DeliverableEmail extends OutgoingEmail {
  from: string;
  messageId: string;
}

/** The outside mail server (D17). A refused or unreachable server is a ProviderUnavailableError. */
export interface MailTransport {
  deliver(message: DeliverableEmail): Promise<void>;
}
