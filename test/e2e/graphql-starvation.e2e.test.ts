import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { docx, words } from '../helpers/documents';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { signInAs } from '../helpers/members';
import { assertBuilt, cleanEnv, MAIN, startProcess, type RunningProcess } from '../helpers/service-process';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D24, D25's starvation case: one tenant firing expensive GraphQL queries from 8 connections at once is
 * refused or limited, while another tenant's requests keep the latency they have with no attack. The service runs
 * as its own process, as `npm run serve` runs it, with a budget the other tenant's polling stays within.
 *
 * The bound is relative to the same polling measured just before the attack on the same machine: starved, the other
 * tenant waits behind the attacker's queries, seconds where it had tens of milliseconds. An absolute figure (the
 * issue's p99 under 200 ms, met on a quiet machine) is a speed target, and this test also runs beside other test
 * files on a machine that may be shared: there it measured the machine, not the service.
 *
 * For the same reason it is measured in rounds, each an attack after a quiet spell as long. Each round's attacker is
 * a session of the firm's admin, whose budget is its own (D27) and untouched: every round is an attack on a fresh
 * budget, the largest query it accepts among what is sent, the rest refused. Starved, the other tenant waits in every round; a pause
 * that is the machine's (a file beside this one launching a browser, a collection) lands in one. With one round, the
 * p99 of a few hundred requests was decided by the slowest two: in full runs it failed now and then, as much under one
 * build as under another, while alone it never came near its bound.
 */
const BUDGET = 600;
const ORDERS = 30;
const ATTACKERS = 8;
const ROUNDS = 3;
/** Each window of a round; equal, so that the two p99s are read off as many requests. */
const WINDOW_MS = 3000;

const exec = promisify(execFile);

let t: TestApp;
let mallory: TestAccount;
/** The expensive tenant's sessions, one a round, each with a budget of its own. */
let attackers: string[];
/** The other tenant, one account a round: a round's polling takes most of a budget. */
let victims: TestAccount[];
let service: RunningProcess;
let base: string;

beforeAll(async () => {
  assertBuilt();
  t = await startTestApp();
  const staff = await createStaffToken(t);
  mallory = await createApprovedAccount(t, staff);
  attackers = [];
  while (attackers.length < ROUNDS) attackers.push(await signInAs(t, staff, mallory.email));
  victims = [];
  for (let round = 0; round < ROUNDS; round++) victims.push(await createApprovedAccount(t, staff));
  // Orders with files, so that a page of them costs the CPU the issue measured.
  const files = [];
  for (let i = 0; i < 3; i++)
    files.push((await uploadFile(t, mallory.key, await docx({ paragraphs: [words(50)] }), `f${i}.docx`)).id);
  for (const id of files) await waitForAnalysis(t, mallory.key, id);
  for (let i = 0; i < ORDERS; i++) {
    const quote = await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: files },
        mallory.key,
      )
      .expect(201);
    await t.rest.post(`/api/v1/quotes/${quote.body.data.id}/convert`, undefined, mallory.key).expect(201);
  }
  const env = cleanEnv({
    DATABASE_URL: t.database.url,
    PORT: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: String(BUDGET),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-starve-')),
  });
  service = startProcess(MAIN, ['--role', 'serve'], env);
  const listening = await service.waitFor(/listening on port/, 60_000);
  base = `http://127.0.0.1:${JSON.parse(listening).port}`;
}, 180_000);
afterAll(async () => {
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await t?.close();
});

const post = (key: string, query: string) =>
  fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });

/** The issue's query: 120 aliases of a 100-order page with every file's link. */
const ISSUE_QUERY = `{ ${Array.from({ length: 120 }, (_, i) => `a${i}: orders(perPage: 100) { items { files { downloadUrl } } }`).join(' ')} }`;
/** Nearly the most a query may cost within the budget: three pages of 99 orders with their files (3 x (1 + 99 x 2)). */
const LARGEST_ACCEPTED = `{ ${[0, 1, 2].map((i) => `p${i}: orders(perPage: 99) { items { number files { name downloadUrl } } }`).join(' ')} }`;

describe('one tenant cannot starve another (D24)', () => {
  it('refuses or limits the expensive tenant while the other keeps the latency it has with no attack', async () => {
    /** The other tenant polls (REST and GraphQL in turn) until `until`, and its latencies are kept, sorted. */
    const measure = async (victim: TestAccount, until: number) => {
      const latencies: number[] = [];
      for (let i = 0; Date.now() < until; i++) {
        const started = performance.now();
        const res =
          i % 2
            ? await post(victim.key, '{ me { id name } }')
            : await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${victim.key}` } });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 12));
      }
      return latencies.sort((a, b) => a - b);
    };
    const p99 = (latencies: number[]) => latencies[Math.floor(latencies.length * 0.99)];
    // The attack runs in a process of its own, so this one times the other tenant without sharing its event loop
    // with hundreds of attacking requests a second. Every round inside one budget window (a clock minute), with room
    // for the attackers' processes to start and stop.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < ROUNDS * 2 * WINDOW_MS + 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    // Warmed up first, so that the first quiet spell is not the service's first requests of the kind.
    await measure(victims[0], Date.now() + 500);
    const rounds: { alone: number; attacked: number; samples: number; outcomes: Record<string, number> }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const alone = await measure(victims[round], Date.now() + WINDOW_MS);
      const attacker = attack(attackers[round], WINDOW_MS, [LARGEST_ACCEPTED, ISSUE_QUERY]);
      const latencies = await measure(victims[round], Date.now() + WINDOW_MS);
      rounds.push({ alone: p99(alone), attacked: p99(latencies), samples: latencies.length, outcomes: await attacker });
    }

    // In each round the expensive tenant got at most its budget's worth of answers; everything else was refused before
    // it ran. How many it sent follows the CPU its niced process got, so the count is checked against itself.
    for (const { outcomes } of rounds) {
      const refused = (outcomes.QUERY_TOO_COMPLEX ?? 0) + (outcomes.RATE_LIMITED ?? 0);
      const sent = Object.values(outcomes).reduce((sum, count) => sum + count, 0);
      expect(outcomes.ANSWERED ?? 0).toBeLessThanOrEqual(1);
      expect(refused).toBe(sent - (outcomes.ANSWERED ?? 0));
      expect(refused).toBeGreaterThanOrEqual(ATTACKERS);
    }
    expect(Math.min(...rounds.map((round) => round.samples))).toBeGreaterThan(30);
    const starved = rounds.filter((round) => round.attacked >= 3 * round.alone + 50);
    expect(starved.length <= 1 ? [] : starved).toEqual([]);
  }, 120_000);
});

/**
 * ATTACKERS connections firing `queries` in turn for `ms` from a child process: answers counted by outcome
 * (`ANSWERED` or the error code).
 *
 * The child runs at a lower CPU priority. A real attacker's client runs on its own machine; here, on two cores
 * shared with the service, PostgreSQL and the other test files, its loops (hundreds of requests a second) took the
 * CPU the other tenant's requests waited for, and the bound measured the test's own client, not the service.
 */
async function attack(key: string, ms: number, queries: string[]): Promise<Record<string, number>> {
  const script = `
    const [base, key, ms, connections, queries] = [process.argv[1], process.argv[2], Number(process.argv[3]), Number(process.argv[4]), JSON.parse(process.argv[5])];
    const outcomes = {};
    const stopAt = Date.now() + ms;
    const loop = async (query) => {
      while (Date.now() < stopAt) {
        const res = await fetch(base + '/graphql', { method: 'POST', headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        const body = await res.json();
        const outcome = body.errors?.[0]?.extensions?.code ?? 'ANSWERED';
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    };
    Promise.all(Array.from({ length: connections }, (_, i) => loop(queries[i % queries.length]))).then(() => process.stdout.write(JSON.stringify(outcomes)));
  `;
  const { stdout } = await exec(
    'nice',
    ['-n', '10', process.execPath, '-e', script, base, key, String(ms), String(ATTACKERS), JSON.stringify(queries)],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as Record<string, number>;
}
