import { dirname, join } from 'node:path';
import { Router, type Response } from 'express';

/** A file inside an installed package, found through its package.json (React does not export its UMD builds). */
const resolveAsset = (pkg: string, file: string) => join(dirname(require.resolve(`${pkg}/package.json`)), file);

/**
 * The browser bundles of the API reference and the GraphQL explorer, served by this service from its own
 * dependencies: the pages work on a machine with no internet (no CDN, no font service).
 */
export const ASSETS = {
  'redoc.standalone.js': resolveAsset('redoc', 'bundles/redoc.standalone.js'),
  'react.production.min.js': resolveAsset('react', 'umd/react.production.min.js'),
  'react-dom.production.min.js': resolveAsset('react-dom', 'umd/react-dom.production.min.js'),
  'graphiql.min.js': resolveAsset('graphiql', 'graphiql.min.js'),
  'graphiql.min.css': resolveAsset('graphiql', 'graphiql.min.css'),
} as const;

export type AssetName = keyof typeof ASSETS;

/** `/assets/<name>` for the files above; the versions are pinned, so browsers may keep them for a day. */
export function assetRoutes(): Router {
  const router = Router();
  for (const [name, path] of Object.entries(ASSETS)) {
    router.get(`/assets/${name}`, (_req, res: Response) => res.sendFile(path, { maxAge: '1d', immutable: false }));
  }
  return router;
}

export const assetUrl = (name: AssetName) => `/assets/${name}`;
