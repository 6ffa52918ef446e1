import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Account } from '../accounts/account.entity';
import { ValidationError } from '../shared/errors';
import { IdempotencyKey } from './idempotency-key.entity';

export const IDEMPOTENCY_TTL_HOURS = 24;
const MAX_KEY_LENGTH = 255;

export type Claim =
  | { kind: 'new'; record: IdempotencyKey }
  | { kind: 'replay'; statusCode: number; body: unknown }
  | { kind: 'in_progress' };

/**
 * D9: per account, a key seen within 24 hours replays the first answer when the request is the same, and is
 * refused (422) when it is not. The key is claimed with an insert, so two racing requests cannot both run.
 */
export class IdempotencyService {
  async claim(em: EntityManager, account: Account, key: string, fingerprint: string): Promise<Claim> {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw ValidationError.of('idempotency_key', `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters.`);
    }
    const cutoff = new Date(Date.now() - IDEMPOTENCY_TTL_HOURS * 60 * 60 * 1000);
    await em.nativeDelete(IdempotencyKey, { account, key, createdAt: { $lt: cutoff } });
    const record = Object.assign(new IdempotencyKey(), { account, key, fingerprint });
    try {
      await em.insert(record);
      return { kind: 'new', record };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
    const existing = await em.findOneOrFail(IdempotencyKey, { account, key }, { refresh: true });
    if (existing.fingerprint !== fingerprint) {
      throw ValidationError.of('idempotency_key', 'This Idempotency-Key was already used with a different request.');
    }
    return existing.statusCode === null ? { kind: 'in_progress' } : { kind: 'replay', statusCode: existing.statusCode, body: existing.responseBody };
  }

  /** Keeps the answer to replay; a server-side failure (5xx) frees the key so that a retry runs again. */
  async settle(em: EntityManager, record: IdempotencyKey, statusCode: number, body: unknown): Promise<void> {
    if (statusCode >= 500) await em.nativeDelete(IdempotencyKey, { id: record.id });
    else await em.nativeUpdate(IdempotencyKey, { id: record.id }, { statusCode, responseBody: body as object });
  }
}
