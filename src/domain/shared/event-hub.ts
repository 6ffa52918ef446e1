import type { EntityManager } from '@mikro-orm/core';

/** Acts on an event in the transaction that raised it, through that transaction's EntityManager. */
export type Subscriber<E> = (em: EntityManager, event: E) => Promise<void>;

/**
 * One kind of domain event and the areas that act on it (docs/architecture.md "Domain events"). Raising an event runs
 * every subscriber, in the order they subscribed, in the raiser's transaction: what they write (an audit row, an
 * e-mail in the outbox, a job) commits with the change that raised it or not at all, and a subscriber that throws
 * undoes the change. Subscribers write through the EntityManager only; nothing leaves the process before the commit
 * (the outbox and the queue deliver after it).
 */
export class EventHub<E> {
  private readonly subscribers: Subscriber<E>[] = [];

  /** Adds `subscriber` after those there; answers the way to take it off again. */
  subscribe(subscriber: Subscriber<E>): () => void {
    this.subscribers.push(subscriber);
    return () => {
      const at = this.subscribers.indexOf(subscriber);
      if (at >= 0) this.subscribers.splice(at, 1);
    };
  }

  async raise(em: EntityManager, event: E): Promise<void> {
    for (const subscriber of this.subscribers) await subscriber(em, event);
  }
}
