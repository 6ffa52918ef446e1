import { Router } from 'express';
import { inlineScriptNonce } from '../http/browser-access';
import { entryPoints, explorerPage, landingPage, referencePage } from './pages';
import { assetRoutes } from './vendor-assets';

/**
 * The human side of both doors, fully offline: `/` links to `/docs` (the REST reference) and to the GraphQL
 * explorer (and answers a JSON index of the entry points to anything but a browser), which answers GET /graphql when a browser asks for HTML (API clients still reach Apollo). Every page
 * keeps its loads local under the page policy (browser-access.ts); the explorer's one inline script carries a nonce.
 */
export function docsRoutes(operator: string): Router {
  const router = Router();
  router.use(assetRoutes());
  router.get('/', (req, res) =>
    req.accepts(['json', 'html']) === 'html'
      ? res.type('html').send(landingPage(operator))
      : res.json(entryPoints(operator)),
  );
  // Browsers ask every site for an icon; an empty answer keeps a 404 out of their consoles.
  router.get('/favicon.ico', (_req, res) => res.set('Cache-Control', 'public, max-age=86400').status(204).end());
  // The reference's own links to its maker's logo would leave the machine: the policy keeps every load local.
  router.get('/docs', (_req, res) => res.type('html').send(referencePage(operator)));
  router.get('/graphql', (req, res, next) =>
    req.accepts(['json', 'html']) === 'html'
      ? res.type('html').send(explorerPage(operator, inlineScriptNonce(res)))
      : next(),
  );
  return router;
}
