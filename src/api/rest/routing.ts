import type { RequestHandler, Router } from 'express';
import { tagRoute } from '../http/metrics';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Declares every method a path answers, and answers the others 405 with `Allow` (D2), so a wrong method
 * on a known path is told apart from an unknown path.
 */
export function route(router: Router, path: string, methods: Partial<Record<Method, RequestHandler[]>>): void {
  const allowed: string[] = [];
  for (const [method, handlers] of Object.entries(methods) as [Method, RequestHandler[]][]) {
    router[method](path, tagRoute(), ...handlers);
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
