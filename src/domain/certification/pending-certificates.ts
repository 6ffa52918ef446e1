import type { EntityManager } from '@mikro-orm/core';
import { ValidationError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { Order } from '../orders/order.entity';
import { PendingCertificate } from './pending-certificate.entity';
import { verificationCode } from './verification-code';

/**
 * Past this, a completion's intent is taken over even while its process lives: one whose compensation was lost (the
 * database away at that moment). Far longer than stamping, drawing and signing take; one taken over while still at
 * work only finds, when it applies, that the intent is no longer its own, and drops its bytes.
 */
const ABANDONED_AFTER_MS = 15 * 60_000;

export interface PendingCertificatesDeps {
  /** This process's mark of life (ProcessClaim, D25), named on each intent it records. */
  processId: number;
  /** The processes alive now, on any machine sharing the database. */
  liveProcesses: (em: EntityManager) => Promise<Set<number>>;
  logger: Logger;
}

/**
 * The intents of completions (D20, docs/architecture.md "How a certificate is issued"): one per order, recorded with
 * the order locked before the slow work, ended in the transaction that completes the order.
 */
export class PendingCertificates {
  constructor(private readonly deps: PendingCertificatesDeps) {}

  /**
   * With the order locked: a new intent, answered by the verification code it reserves. Refused (422 `status`) while
   * another completion's stands; one whose process died, or abandoned, is taken over.
   */
  async begin(em: EntityManager, order: Order): Promise<string> {
    const standing = await em.findOne(PendingCertificate, { order }, { refresh: true });
    if (standing && !(await this.abandoned(em, standing))) throw beingCertified();
    if (standing) await em.nativeDelete(PendingCertificate, { code: standing.code });
    const pending = em.create(PendingCertificate, {
      code: verificationCode(),
      order,
      processId: this.deps.processId,
    });
    await em.flush();
    return pending.code;
  }

  /** With the order locked, before applying: refused unless `code` is still the order's intent (not taken over). */
  async assertHeld(em: EntityManager, order: Order, code: string): Promise<void> {
    if (!(await em.count(PendingCertificate, { order, code }))) throw beingCertified();
  }

  /** Ends the intent: in the transaction that completes the order, or as the compensation of one that did not. */
  async end(em: EntityManager, code: string): Promise<void> {
    await em.nativeDelete(PendingCertificate, { code });
  }

  /** The compensation's end, which must not hide why the completion failed: a failure is logged, and the intent taken over later. */
  async release(em: EntityManager, code: string): Promise<void> {
    await this.end(em, code).catch((error: unknown) =>
      this.deps.logger.warn({ err: error, code }, 'pending certificate left to be taken over'),
    );
  }

  private async abandoned(em: EntityManager, pending: PendingCertificate): Promise<boolean> {
    if (Date.now() - pending.startedAt.getTime() > ABANDONED_AFTER_MS) return true;
    return !(await this.deps.liveProcesses(em)).has(pending.processId);
  }
}

const beingCertified = () => ValidationError.of('status', 'The order is being certified.');
