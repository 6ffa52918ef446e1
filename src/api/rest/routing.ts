import type { RequestHandler, Router } from 'express';
import { tagRoute } from '../http/metrics';
import { bodyTypes, declaresBody } from './media-type';

const JSON_ONLY = bodyTypes('application/json');
const READS_BODY = new Set(['post', 'put', 'patch']);

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Declares every method a path answers, and answers the others 405 with `Allow` (D2), so a wrong method
 * on a known path is told apart from an unknown path. A method that reads a body reads JSON unless its handlers
 * say otherwise (`bodyTypes`): a form or multipart body sent to a JSON operation is 415 (D25), checked after
 * authentication, just before the operation itself.
 */
export function route(router: Router, path: string, methods: Partial<Record<Method, RequestHandler[]>>): void {
  const allowed: string[] = [];
  for (const [method, handlers] of Object.entries(methods) as [Method, RequestHandler[]][]) {
    const typed =
      READS_BODY.has(method) && !declaresBody(handlers)
        ? [...handlers.slice(0, -1), JSON_ONLY, ...handlers.slice(-1)]
        : handlers;
    router[method](path, tagRoute(), ...typed);
    allowed.push(method.toUpperCase());
    if (method === 'get') allowed.push('HEAD');
  }
  const allow = allowed.join(', ');
  router.all(path, tagRoute(), (req, res) => {
    res
      .status(405)
      .set('Allow', allow)
      .json({ message: `The ${req.method} method is not supported for this route. Supported methods: ${allow}.` });
  });
}
