import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../src/db/paths';
import { assertBuilt, cleanEnv, CLI, MAIN, run, startProcess, type RunningProcess } from '../helpers/service-process';
import { createTestDatabase } from '../helpers/test-database';

/**
 * The README's first hour, as a new user lives it: every ```sh block of the walk-through sections, in the README's
 * order, in one bash session (`set -euo pipefail`, from the checkout, so `examples/` is where the README says),
 * against a real service process with its embedded PostgreSQL under a DATA_DIR of its own, on a free port given as
 * PORT to both (the README's `BASE` comes from it: a block that hard-codes another address fails). The one change
 * to the text: the CLI runs from the build `npm test` made, since `npm run cli` would rebuild it under the other
 * tests' feet.
 */
const exec = promisify(execFile);

/** The walk-through's sections, and what each one's blocks must print between them. */
const WALKTHROUGH: Record<string, RegExp[]> = {
  '## First admin, first account, first key': [
    /^ltk_staff_\w+$/m,
    /"approveAccount":\{"status":"APPROVED"/,
    /Your API key/,
    /"status":"approved"/,
    /"unit_price_cents":990/,
  ],
  '## From upload to a paid order (sandbox walk-through)': [/^(processing|in_review)$/m],
  '## Uploads and documents': [/"name":"birth-certificate\.pdf"/, /^204$/m],
  '## Quotes': [/"status":"priced".*"reference":"Matter 114"/],
  '## Orders and payment': [/"status":"pending_payment"/, /"line2":"Suite 200"/],
  // D31: the paid order's receipt, through its stable link's redirect.
  '## Billing on terms': [/^200 application\/pdf$/m],
  '## Interpreter bookings': [
    /"status":"requested"/,
    // D32: a booking a minute ahead, confirmed with an interpreter on record, paid, then completed with overtime.
    /^Cancellation once paid: refunded in full by \d{4}-\d\d-\d\d \d\d:\d\d UTC; 50% refunded by .+ UTC; nothing refunded after that\.$/m,
    /"staffInterpretationBooking":\{"status":"CONFIRMED","cancellationFeeNow":\{"feeCents":17000,"refundCents":0\}\}/,
    /"completeInterpretationBooking":\{"status":"COMPLETED","payment":\{"overtime":\{"hours":0\.5,"amountCents":4250\}\}\}/,
    /hours: 0\.5,\s+amount_cents: 4250,[\s\S]*paid_at: '\d{4}-\d\d-\d\dT[^']+Z',\s+receipt_url: 'http/,
  ],
  '## Translation': [
    /"updateStaffProfile":\{"credentials":"ATA-certified translator no\. 123456"\}/,
    /"approveTranslation":\{"status":"IN_REVIEW"\}/,
    /"notaryName":"Nora Public"/,
    /"completeCertifiedOrder":\{"status":"COMPLETED","certificate":\{"verifyUrl":"http[^"]+\/verify\//,
    /^200 application\/pdf$/m,
    /^200$/m,
    // D30: the scan waits with a translator, not on hold, and completes from their file.
    /^processing$/m,
    /"assignOrder":\{"assignee":\{"name":"Ada Admin"\}\}/,
    /"attachReviewedTranslation":\{"status":"IN_REVIEW"\}/,
    /"completeCertifiedOrder":\{"status":"COMPLETED","certificate":\{"verifyUrl":"http[^"]+\/verify\//,
  ],
  '## Polling: ETag and If-None-Match': [/^HTTP\/1\.1 304 Not Modified/m],
};

/** The README's other ```sh blocks, and why a test cannot run them. */
const NOT_RUN: Record<string, string> = {
  '## Set-up: two commands':
    '`npm install && npm start` and `npm test`: this test starts the service itself (on a free port, with a DATA_DIR of its own), and is part of `npm test`.',
};

interface Block {
  section: string;
  code: string;
}

/** The ```sh blocks of the README, each with the `## ` section it stands in. */
function shellBlocks(): Block[] {
  const blocks: Block[] = [];
  let section = '';
  let code: string[] | undefined;
  for (const line of readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n')) {
    // Blocks inside a list item are indented: they are run too, as a reader copies them.
    if (code && line.trim() === '```') {
      blocks.push({ section, code: code.join('\n') });
      code = undefined;
    } else if (code) code.push(line);
    else if (line.trim() === '```sh') code = [];
    else if (line.startsWith('## ')) section = line;
  }
  return blocks;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });

const marker = (index: number) => `<<<readme block ${index}>>>`;

let service: RunningProcess;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertBuilt();
  const port = await freePort();
  env = cleanEnv({ PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-readme-')), LOG_LEVEL: 'info' });
  service = startProcess(MAIN, [], env);
  await service.waitFor(/listening on port/, 60_000);
}, 90_000);
afterAll(async () => {
  if (service?.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
});

it('runs every ```sh block of the README or says here why not', () => {
  const unlisted = shellBlocks().filter(({ section }) => !(section in WALKTHROUGH) && !(section in NOT_RUN));
  expect(unlisted.map(({ section }) => section)).toEqual([]);
});

it('runs the walk-through blocks in order, as written: an approved account, a quote priced, orders paid, a booking completed with overtime, a certified order completed', async () => {
  const blocks = shellBlocks().filter(({ section }) => section in WALKTHROUGH);
  const script = blocks.map(({ code }, index) => `${code}\nprintf '\\n%s\\n' '${marker(index)}'`).join('\n');
  const { stdout } = await exec(
    'bash',
    ['-euo', 'pipefail', '-c', script.replaceAll('npm run -s cli --', `node ${CLI}`)],
    {
      cwd: REPO_ROOT,
      env,
      // The bookings walk waits a minute for its start (completion is refused before it, D29).
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  // What each section's blocks printed, checked against what the README says they print.
  let from = 0;
  const printed: Record<string, string> = {};
  blocks.forEach(({ section }, index) => {
    const end = stdout.indexOf(marker(index), from);
    printed[section] = (printed[section] ?? '') + stdout.slice(from, end);
    from = end + marker(index).length;
  });
  for (const [section, expected] of Object.entries(WALKTHROUGH)) {
    for (const pattern of expected)
      expect({ section, printed: printed[section] }).toEqual({ section, printed: expect.stringMatching(pattern) });
  }
  const scheduled = /"scheduled_at":"([^"]+)"/.exec(printed['## Interpreter bookings'])![1];
  expect(Date.parse(scheduled)).toBeGreaterThan(Date.now());
}, 270_000);

describe('sandbox:seed', () => {
  it('on a fresh database, prints only the shell assignments on stdout (the migration log goes to stderr)', async () => {
    const database = await createTestDatabase({ empty: true });
    try {
      const seed = await run(CLI, ['sandbox:seed'], cleanEnv({ DATABASE_URL: database.url, LOG_LEVEL: 'info' }));
      expect(seed.code).toBe(0);
      expect(seed.stdout.filter((line) => !/^(# .*|[A-Z_]+=\w+)$/.test(line))).toEqual([]);
      expect(seed.stdout).toContainEqual(expect.stringMatching(/^KEY=ltk_test_\w+$/));
      expect(seed.stderr.join('\n')).toMatch(/\[migrator\] Applied/);
    } finally {
      await database.drop();
    }
  }, 120_000);

  it('with no service on its DATA_DIR, says so on stderr, exits 1 and starts no database of its own', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ltk-readme-other-'));
    const seed = await run(CLI, ['sandbox:seed'], cleanEnv({ DATA_DIR: dataDir }));
    expect(seed.code).toBe(1);
    expect(seed.stdout).toEqual([]);
    expect(seed.stderr.join('\n')).toContain(`No running service uses the embedded database under DATA_DIR=${dataDir}`);
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
  }, 60_000);
});
