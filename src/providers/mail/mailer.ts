import type { EntityManager } from '@mikro-orm/core';

export interface OutgoingEmail {
  /** What the message is about (api_key, order_on_hold, ...), for the outbox and for logs. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  /**
   * An earlier message of the same kind to the same address that is still waiting for delivery is withdrawn: it
   * holds what this one replaces (a key e-mail sent while the mail server was down, then a new key).
   */
  replacesUnsent?: boolean;
}

/**
 * What the domain sends e-mail through (D17). A message is recorded in the caller's transaction, so it exists exactly
 * when the change that sent it commits; it leaves the machine (in production) only after that, never inside it.
 */
export interface Mailer {
  send(em: EntityManager, message: OutgoingEmail): Promise<void>;
}

/** A message as it goes on the wire: `messageId` is the same on every attempt, so a receiver can drop a repeat. */
export interface DeliverableEmail extends Omit<OutgoingEmail, 'replacesUnsent'> {
  from: string;
  messageId: string;
}

/** The outside mail server (D17). A refused or unreachable server is a ProviderUnavailableError. */
export interface MailTransport {
  deliver(message: DeliverableEmail): Promise<void>;
}
