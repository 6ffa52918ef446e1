#!/usr/bin/env node
// Incremental build (README "Development"): `tsc --build` compiles only what changed since the last build (an
// unchanged tree costs well under a second), so `npm start`, `npm run cli` and `npm test` never empty dist/
// under a running service. Each output is written to a temporary name and renamed, so a running service (or
// the analysis child it starts) never reads a half-written file. Outputs whose source is gone are removed: a
// deleted migration must not keep running from dist/migrations. `--clean` rebuilds from an empty dist/.
//
// `--start` is the start scripts' pre-hook (D37): with NODE_ENV=production, or in a release copy that holds dist/
// and no sources, it compiles nothing (TypeScript is a dev dependency) and only checks that dist/ was built.
'use strict';
const { existsSync, readdirSync, renameSync, rmSync, rmdirSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = __dirname;
const DIST = join(ROOT, 'dist');
const PROJECT = join(ROOT, 'tsconfig.build.json');

if (process.argv.includes('--start') && (process.env.NODE_ENV === 'production' || !existsSync(PROJECT))) {
  if (existsSync(join(DIST, 'src', 'main.js'))) process.exit(0);
  process.stderr.write('dist/ holds no build: run `npm run build` where the dev dependencies are installed first.\n');
  process.exit(1);
}

const ts = require('typescript');
if (process.argv.includes('--clean')) rmSync(DIST, { recursive: true, force: true });

const writeFile = ts.sys.writeFile;
ts.sys.writeFile = (path, data, writeByteOrderMark) => {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFile(temporary, data, writeByteOrderMark);
  renameSync(temporary, path);
};

const format = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
const report = (diagnostic) => process.stderr.write(ts.formatDiagnosticsWithColorAndContext([diagnostic], format));
const host = ts.createSolutionBuilderHost(ts.sys, undefined, report, () => undefined);
const status = ts.createSolutionBuilder(host, [PROJECT], {}).build();
if (status !== ts.ExitStatus.Success) process.exit(1);
pruneStale(DIST);

/** Removes `x.js` / `x.js.map` / `x.json` in dist/ with no `x.ts` / `x.json` beside the sources, then empty folders. */
function pruneStale(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      pruneStale(path);
      if (readdirSync(path).length === 0) rmdirSync(path);
      continue;
    }
    const output = relative(DIST, path).replace(/\.map$/, '');
    const sources = output.endsWith('.js')
      ? ['.ts', '.tsx', '.mts', '.cts'].map((ext) => output.slice(0, -3) + ext)
      : output.endsWith('.json')
        ? [output]
        : undefined;
    if (sources && !sources.some((source) => existsSync(join(ROOT, source)))) rmSync(path, { force: true });
  }
}
