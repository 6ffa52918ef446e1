import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import type { Ctx } from '../../domain/identity/context';

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
 * Gives a request its id (echoing a sane incoming X-Request-Id, D2) and its own EntityManager fork, so no identity
 * map is ever shared between requests. The fork's logger context carries the request id to every statement it runs.
 */
export function openContext(orm: MikroORM, req: IncomingMessage, res: ServerResponse): Ctx {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  return ((req as Request).ctx = { em: orm.em.fork({ loggerContext: { requestId } }), requestId, actor: null });
}
