'use strict';
/**
 * `npm run test:durations`: writes test/file-durations.json, each test file's time (ms, to the 100) from the timings
 * jest kept in .cache/jest after the last run of it, for test/helpers/grouped-runner.js to balance a run in a checkout
 * that has none (a clean clone, as CI runs); files since removed are left out. Run it after a whole `npm test`.
 */
const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..', '..');
const cache = join(root, '.cache', 'jest');
const durations = {};
for (const name of readdirSync(cache).filter((file) => file.startsWith('perf-cache-'))) {
  for (const [path, [, ms]] of Object.entries(JSON.parse(readFileSync(join(cache, name), 'utf8'))))
    if (existsSync(path)) durations[relative(root, path)] = Math.round(ms / 100) * 100;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(root, 'test', 'file-durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/file-durations.json: ${Object.keys(sorted).length} files`);
