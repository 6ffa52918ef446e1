import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Account } from '../identity/account.entity';
import { ValidationError } from '../../shared/errors';
import { IdempotencyKey } from './idempotency-key.entity';

export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first request still unanswered after this long died with its process: its key is free again. */
const ABANDONED_AFTER_MINUTES = 15;
const MAX_KEY_LENGTH = 255;

export type Claim =
  | { kind: 'new'; record: IdempotencyKey }
  | { kind: 'replay'; statusCode: number; body: unknown }
  | { kind: 'in_progress' };

/**
 * What makes two requests "the same" (D9). A JSON request's fingerprint is `known` before it runs. A streamed
 * upload's is known only once its body has been read: by the handler for the first request (passed to
 * `settle`), or by `read` for a later one that is answered from the first (which reads and drops its body).
 */
export type RequestFingerprint = { known: string; earlier?: string } | { read: () => Promise<string> };

/**
 * The same request by its fingerprint, or by `earlier`: how a JSON body was fingerprinted before its keys were put
 * in order, which records written then (kept IDEMPOTENCY_TTL_HOURS) still hold.
 */
const sameRequest = (stored: string, fingerprint: { known: string; earlier?: string }) =>
  stored === fingerprint.known || stored === fingerprint.earlier;

const mismatch = () =>
  ValidationError.of('idempotency_key', 'This Idempotency-Key was already used with a different request.');

/**
 * D9: per account, a key seen within 24 hours replays the first answer when the request is the same, and is
 * refused (422) when it is not. The key is claimed with an insert, so two racing requests cannot both run.
 */
export class IdempotencyService {
  async claim(em: EntityManager, account: Account, key: string, fingerprint: RequestFingerprint): Promise<Claim> {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw ValidationError.of(
        'idempotency_key',
        `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters.`,
      );
    }
    const expired = new Date(Date.now() - IDEMPOTENCY_TTL_HOURS * 60 * 60 * 1000);
    const abandoned = new Date(Date.now() - ABANDONED_AFTER_MINUTES * 60 * 1000);
    await em.nativeDelete(IdempotencyKey, {
      account,
      key,
      $or: [{ createdAt: { $lt: expired } }, { statusCode: null, createdAt: { $lt: abandoned } }],
    });
    const known = 'known' in fingerprint ? fingerprint.known : undefined;
    const record = em.create(IdempotencyKey, { account, key, fingerprint: known ?? null }, { persist: false });
    try {
      await em.insert(record);
      return { kind: 'new', record };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
    const existing = await em.findOneOrFail(IdempotencyKey, { account, key }, { refresh: true });
    if (existing.statusCode === null) {
      if ('known' in fingerprint && existing.fingerprint !== null && !sameRequest(existing.fingerprint, fingerprint))
        throw mismatch();
      return { kind: 'in_progress' };
    }
    const same =
      'known' in fingerprint
        ? sameRequest(existing.fingerprint!, fingerprint)
        : existing.fingerprint === (await fingerprint.read());
    if (!same) throw mismatch();
    return { kind: 'replay', statusCode: existing.statusCode, body: existing.responseBody };
  }

  /**
   * Keeps the answer to replay, with the fingerprint of a body read while answering. A server-side failure
   * (5xx), or an answer given without reading a streamed body (so without a fingerprint), frees the key: a
   * retry runs again.
   */
  async settle(
    em: EntityManager,
    record: IdempotencyKey,
    statusCode: number,
    body: unknown,
    readFingerprint?: string,
  ): Promise<void> {
    const fingerprint = record.fingerprint ?? readFingerprint;
    if (statusCode >= 500 || fingerprint === undefined) await em.nativeDelete(IdempotencyKey, { id: record.id });
    else await em.nativeUpdate(IdempotencyKey, { id: record.id }, { statusCode, responseBody: body, fingerprint });
  }
}
