import { readFileSync } from 'node:fs';
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

/**
 * What a bundle would fetch from elsewhere, and what it is served with instead. Redoc's sidebar credit shows its
 * maker's logo from a CDN, which the page policy refuses (an error in the browser's console): with an empty
 * address the image fails without a request and Redoc leaves it out, keeping the credit's link.
 */
const OFFLINE: Partial<Record<AssetName, [outside: string, local: string]>> = {
  'redoc.standalone.js': ['"https://cdn.redoc.ly/redoc/logo-mini.svg"', '""'],
};

/** An asset as served: the file itself, or its text with the OFFLINE change, read once on first use. */
function assetHandler(name: AssetName): (req: unknown, res: Response) => void {
  const path = ASSETS[name];
  const change = OFFLINE[name];
  if (!change) return (_req, res) => res.sendFile(path, { maxAge: '1d', immutable: false });
  let text: string | undefined;
  return (_req, res) => {
    text ??= readFileSync(path, 'utf8').replaceAll(...change);
    res.type('js').set('Cache-Control', 'public, max-age=86400').send(text);
  };
}

/** `/assets/<name>` for the files above; the versions are pinned, so browsers may keep them for a day. */
export function assetRoutes(): Router {
  const router = Router();
  for (const name of Object.keys(ASSETS) as AssetName[]) router.get(`/assets/${name}`, assetHandler(name));
  return router;
}

export const assetUrl = (name: AssetName) => `/assets/${name}`;
