import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../src/db/paths';
import { assertBuilt, cleanEnv, CLI, MAIN, startProcess, type RunningProcess } from '../helpers/service-process';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

/**
 * The README's sandbox walk-through, run as written by bash against a real service process: seed, upload the
 * example affidavit, quote, convert, pay, poll. Only the address changes (this test's port), and the CLI runs
 * from the build `npm test` made (`npm run cli` would rebuild it under the other tests' feet).
 */
const exec = promisify(execFile);

let database: TestDatabase;
let service: RunningProcess;
let port: number;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });

beforeAll(async () => {
  assertBuilt();
  database = await createTestDatabase();
  port = await freePort();
  const env = cleanEnv({ DATABASE_URL: database.url, PORT: String(port), APP_URL: `http://localhost:${port}`, DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-readme-')), LOG_LEVEL: 'info' });
  service = startProcess(MAIN, [], env);
  await service.waitFor(/listening on port/, 60_000);
}, 90_000);
afterAll(async () => {
  if (service?.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await database?.drop();
});

function walkthrough(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## From upload to a paid order'));
  const block = section.match(/```sh\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error('The README has no walk-through block.');
  return block.replaceAll('localhost:3000', `localhost:${port}`).replaceAll('npm run -s cli --', `node ${CLI}`);
}

it('runs the README walk-through as written, ending with a paid order', async () => {
  const { stdout } = await exec('bash', ['-euo', 'pipefail', '-c', walkthrough()], {
    cwd: REPO_ROOT,
    env: cleanEnv({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }),
    timeout: 60_000,
  });
  expect(stdout.trim().split('\n').at(-1)).toMatch(/^(processing|in_review)$/);
}, 90_000);
