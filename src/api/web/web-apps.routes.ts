import express, { Router } from 'express';
import type { AppConfig } from '../../config/app-config';
import { notFoundHandler } from '../http/error-handler';
import { WEB_APP_CSP, webAppPage } from './web-app-page';
import { isBuilt, WEB_APPS, webAppDir, type WebAppName } from './web-apps';

/**
 * `/console` and `/portal` (docs/decisions.md D34, D35): each one's built files under `/<app>/assets/`, and its page
 * at every other address under it, so a screen's address can be reloaded or shared. A checkout that was never built says how to
 * build it rather than serving a blank page.
 */
export function webAppRoutes(config: AppConfig): Router {
  const router = Router();
  for (const app of Object.keys(WEB_APPS) as WebAppName[]) {
    router.use(
      `/${app}/assets`,
      express.static(webAppDir(app), { index: false, maxAge: 0, etag: true, lastModified: false }),
      notFoundHandler,
    );
    router.get([`/${app}`, `/${app}/*rest`], (_req, res) => {
      res.set({ 'Content-Security-Policy': WEB_APP_CSP, 'Cache-Control': 'no-cache' });
      if (!isBuilt(app)) {
        res.status(503).type('text').send(`The ${app} is not built: run \`npm run build\`.`);
        return;
      }
      res.type('html').send(webAppPage(app, WEB_APPS[app], config.env));
    });
  }
  return router;
}
