import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { requireAccount } from '../../domain/accounts/authentication.service';
import type { Services } from '../../services';

/**
 * Honours `Idempotency-Key` on a POST (D9), after authentication. JSON requests are fingerprinted by method,
 * path and body; streamed uploads by method, path, media type (without the multipart boundary) and length,
 * since their bytes are never buffered. A replay answers the stored status and body with
 * `Idempotent-Replayed: true`.
 */
export function idempotency(services: Services): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('idempotency-key');
    if (key === undefined) return next();
    const account = requireAccount(req.ctx.actor);
    const em = req.ctx.em.fork();
    // A streamed body we answer without reading is drained, so the client can finish sending it.
    const drain = () => void (req.readableEnded || req.resume());
    let claim;
    try {
      claim = await services.idempotency.claim(em, account, key, fingerprint(req));
    } catch (error) {
      drain();
      throw error;
    }
    if (claim.kind !== 'new') drain();
    if (claim.kind === 'replay') {
      res.status(claim.statusCode).set('Idempotent-Replayed', 'true');
      return void (claim.body === null ? res.end() : res.json(claim.body));
    }
    if (claim.kind === 'in_progress') {
      return void res.status(409).json({ message: 'A request with this Idempotency-Key is still being processed.' });
    }
    // The answer is stored before it is sent: a retry that follows the response at once finds it.
    const json = res.json.bind(res);
    res.json = (payload: unknown) => {
      void services.idempotency
        .settle(em, claim.record, res.statusCode, payload)
        .catch(() => undefined)
        .finally(() => json(payload));
      return res;
    };
    next();
  };
}

function fingerprint(req: Parameters<RequestHandler>[0]): string {
  const hash = createHash('sha256').update(`${req.method} ${req.baseUrl}${req.path}\n`);
  if (req.is('multipart/form-data')) {
    hash.update(`multipart ${req.get('content-length') ?? ''}`);
  } else {
    hash.update(JSON.stringify(req.body ?? null));
  }
  return hash.digest('hex');
}
