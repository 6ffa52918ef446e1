import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestHandler } from 'express';
import type { Ctx } from '../../domain/shared/context';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      ctx: Ctx;
      /** A JSON body's bytes as received (webhook signatures cover them). */
      rawBody?: Buffer;
    }
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request its id (echoing a sane incoming X-Request-Id, D2) and its own EntityManager fork,
 * so no identity map is ever shared between requests. The fork's logger context carries the request id to
 * every statement it runs.
 */
export function requestContext(orm: MikroORM): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    req.ctx = { em: orm.em.fork({ loggerContext: { requestId } }), requestId, actor: null };
    next();
  };
}
