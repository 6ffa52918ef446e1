import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { RequestFingerprint } from '../../domain/idempotency/idempotency.service';
import { approvedAccount } from '../../domain/identity/guards';
import type { Services } from '../../services';
import { multipartDigest, readMultipart } from './multipart';
import { createdLocation } from './routes/location';

/**
 * Honours `Idempotency-Key` on a POST (D9), after authentication. Requests are fingerprinted by method, path
 * and body: a JSON body as parsed; a streamed upload, never buffered, by the digest of its parts (fields, file
 * names and contents) taken as the handler reads it, or, for a retry, as this reads it through. A replay
 * answers the stored status and body with `Idempotent-Replayed: true` (and a 201's `Location`).
 */
export function idempotency(services: Services): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('idempotency-key');
    if (key === undefined) return next();
    const { account } = approvedAccount(req.ctx.actor);
    const em = req.ctx.em.fork();
    // A streamed body we answer without reading is drained, so the client can finish sending it.
    const drain = () => void (req.readableEnded || req.resume());
    let claim;
    try {
      claim = await services.idempotency.claim(em, account, key, fingerprint(req, services.config.uploadMaxBytes));
    } catch (error) {
      drain();
      throw error;
    }
    if (claim.kind !== 'new') drain();
    if (claim.kind === 'replay') {
      res.status(claim.statusCode).set('Idempotent-Replayed', 'true');
      // Only status and body are stored; a 201's Location follows from them, so the replay sends the same one.
      const location =
        claim.statusCode === 201 ? createdLocation(services.config.appUrl, req.path, claim.body) : undefined;
      if (location) res.set('Location', location);
      return void (claim.body === null ? res.end() : res.json(claim.body));
    }
    if (claim.kind === 'in_progress') {
      return void res.status(409).json({ message: 'A request with this Idempotency-Key is still being processed.' });
    }
    // The answer is stored before it is sent: a retry that follows the response at once finds it.
    const json = res.json.bind(res);
    res.json = (payload: unknown) => {
      const digest = multipartDigest(req);
      void services.idempotency
        .settle(em, claim.record, res.statusCode, payload, digest && hashOf(req, digest))
        .catch(() => undefined)
        .finally(() => json(payload));
      return res;
    };
    next();
  };
}

function fingerprint(req: Request, uploadMaxBytes: number): RequestFingerprint {
  if (!req.is('multipart/form-data')) {
    const body: unknown = req.body ?? null;
    return { known: hashOf(req, canonicalJson(body)), earlier: hashOf(req, JSON.stringify(body)) };
  }
  return {
    read: async () => {
      await readMultipart(req, uploadMaxBytes);
      return hashOf(req, multipartDigest(req)!);
    },
  };
}

/**
 * Keys are per account; a member's request also carries who sent it (D27), so a key reused by another person of the
 * account is a different request (422), never a replay of someone else's answer. A key's requests are unchanged.
 */
const hashOf = (req: Request, body: string) => {
  const member = req.ctx.actor?.kind === 'account' ? req.ctx.actor.member : null;
  return createHash('sha256')
    .update(`${req.method} ${req.baseUrl}${req.path}\n${member ? `member ${member.id}\n` : ''}${body}`)
    .digest('hex');
};

/** JSON with every object's keys in order: the same body sent with its fields in another order is the same request. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
