import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The browser applications (docs/decisions.md D34): each is `src/web/<name>/`, bundled by `npm run build` into
 * `dist/web/<name>/` and served at `/<name>`. The service only serves what was built; it never bundles at start.
 */
export const WEB_APPS = { console: 'Staff console', portal: 'Client portal' } as const;
export type WebAppName = keyof typeof WEB_APPS;

/** dist/web: this file runs as src/api/web/ under jest and as dist/src/api/web/ otherwise. */
const WEB_DIST = __filename.endsWith('.ts')
  ? join(__dirname, '..', '..', '..', 'dist', 'web')
  : join(__dirname, '..', '..', '..', 'web');

export const webAppDir = (app: WebAppName) => join(WEB_DIST, app);

export const isBuilt = (app: WebAppName) => existsSync(join(webAppDir(app), 'app.js'));
