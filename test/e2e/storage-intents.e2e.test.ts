import { liveProcessIds } from '../../src/db/live-processes';
import { pdf, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { storedDigest, uploadFile } from '../helpers/files';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D25: bytes are written under a key a row or an intent claims first; a process dying between the two leaves nothing for long. */
let t: TestApp;
let account: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
  account = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => t.close());

const intents = () =>
  t.orm.em
    .fork()
    .getConnection()
    .execute<{ storage_key: string; process_id: number }[]>('select storage_key, process_id from storage_intents');
const sweep = () => {
  const em = t.orm.em.fork();
  return t.services.files.sweepStorage(em, () => liveProcessIds(em));
};

it('turns the intent into the file row at commit', async () => {
  const file = await uploadFile(t, account.key, await pdf([words(10)]), 'a.pdf');
  expect(await intents()).toEqual([]);
  expect((await sweep()).removed).not.toContain(file.id);
  expect(await storedDigest(t, file.id)).toMatch(/^[0-9a-f]{64}$/);
});

it('sweeps the bytes of a process that died between writing them and committing their row, and only those', async () => {
  // The process stops for good inside the upload's transaction, after the bytes were written.
  let written!: () => void;
  const stuck = new Promise<void>((resolve) => (written = resolve));
  const dying = await startTestApp({ databaseOf: t, workers: false, config: { storage: t.config.storage } });
  let end!: (error: Error) => void;
  dying.queue.enqueue = () => (written(), new Promise((_resolve, reject) => (end = reject)));
  const kept = await uploadFile(t, account.key, await pdf([words(10)]), 'kept.pdf');
  void dying.rest.upload('/api/v1/files', { file: await pdf([words(10)]), filename: 'lost.pdf' }, account.key).then(
    () => undefined,
    () => undefined,
  );
  await stuck;
  const [orphan] = await intents();
  expect(orphan).toEqual({ storage_key: expect.any(String), process_id: dying.claim.id });
  // While it lives, its intent keeps the bytes: it may still commit.
  expect((await sweep()).removed).toEqual([]);
  // It dies: its connections go, its transaction with them, and PostgreSQL drops its mark of life.
  await t.orm.em
    .fork()
    .getConnection()
    .execute(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and state = 'idle in transaction'`,
    );
  await dying.claim.release();
  expect(await sweep()).toEqual({ removed: [orphan.storage_key], clearedIntents: 1 });
  expect(await intents()).toEqual([]);
  await expect(storedDigest(t, kept.id)).resolves.toMatch(/^[0-9a-f]{64}$/);
  end(new Error('the process is gone')); // lets its request finish, so that it can be closed
  await dying.close();
});
