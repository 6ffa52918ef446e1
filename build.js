#!/usr/bin/env node
// Incremental build (README "Development"): `tsc --build` compiles only what changed since the last build (an
// unchanged tree costs well under a second), so `npm start`, `npm run cli` and `npm test` never empty dist/
// under a running service. Each output is written to a temporary name and renamed, so a running service (or
// the analysis child it starts) never reads a half-written file. Outputs whose source is gone are removed: a
// deleted migration must not keep running from dist/migrations. `--clean` rebuilds from an empty dist/.
//
// The browser applications (src/web/<app>/main.tsx: the staff console, docs/decisions.md D34) are bundled by esbuild
// into dist/web/<app>/ (app.js, app.css), after graphql-codegen has typed their documents when the schema or a
// screen changed: the service serves them from dist/ and never builds at start.
//
// `--start` is the start scripts' pre-hook (D37): with NODE_ENV=production, or in a release copy that holds dist/
// and no sources, it compiles nothing (TypeScript is a dev dependency) and only checks that dist/ was built.
'use strict';
const { spawnSync } = require('node:child_process');
const {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const { dirname, join, relative } = require('node:path');

const ROOT = __dirname;
const DIST = join(ROOT, 'dist');
/** The browser applications' bundles: not tsc's output, so pruneStale leaves them alone. */
const WEB_DIST = join(DIST, 'web');
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
buildWebApps().catch((error) => {
  process.stderr.write(`${error.message ?? error}\n`);
  process.exit(1);
});

/** Every src/web/<app>/main.tsx, bundled for browsers into dist/web/<app>/. */
async function buildWebApps() {
  const source = join(ROOT, 'src', 'web');
  const apps = readdirSync(source).filter((name) => existsSync(join(source, name, 'main.tsx')));
  if (apps.length === 0) return;
  generateWebTypes(source);
  const esbuild = require('esbuild');
  for (const app of apps) {
    const result = await esbuild.build({
      entryPoints: { app: join(source, app, 'main.tsx') },
      bundle: true,
      minify: true,
      sourcemap: 'linked',
      target: ['es2022'],
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      outdir: join(WEB_DIST, app),
      write: false,
      logLevel: 'warning',
    });
    for (const file of result.outputFiles) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(`${file.path}.${process.pid}.tmp`, file.contents);
      renameSync(`${file.path}.${process.pid}.tmp`, file.path);
    }
  }
}

/** Runs the codegen (codegen.yml) when the schema or a source of src/web is newer than its generated types. */
function generateWebTypes(source) {
  const generated = join(source, 'shared', 'gql', 'graphql.ts');
  const built = existsSync(generated) ? statSync(generated).mtimeMs : 0;
  const newest = Math.max(statSync(join(ROOT, 'schema', 'schema.graphql')).mtimeMs, newestSource(source));
  if (newest <= built) return;
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', '.bin', 'graphql-codegen'), '--config', 'codegen.yml'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (run.status !== 0) throw new Error('graphql-codegen failed');
}

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'gql') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Removes `x.js` / `x.js.map` / `x.json` in dist/ with no `x.ts` / `x.json` beside the sources, then empty folders. */
function pruneStale(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path === WEB_DIST) continue;
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
