import type { EntityManager } from '@mikro-orm/core';

export interface OutgoingEmail {
  /** What the message is about (api_key, order_on_hold, ...), for the outbox and for logs. */
  kind: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends e-mail. Callers send as the last step inside their transaction, so a provider failure rolls the
 * whole change back (503, nothing half-made) and the outbox row commits together with the change.
 */
export interface Mailer {
  send(em: EntityManager, message: OutgoingEmail): Promise<void>;
}
