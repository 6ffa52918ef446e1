import { copyFile } from 'node:fs/promises';
import { EngineRequest } from '../../src/domain/translation/engine-request.entity';
import { TranslationService } from '../../src/domain/translation/translation.service';
import { createStorage } from '../../src/providers/storage/create-storage';
import { createLogger } from '../../src/shared/logger';
import { DeepLTranslationEngine } from '../../src/providers/translation/deepl-translation-engine';
import type { TranslationEngine } from '../../src/providers/translation/translation-engine';
import { startDeepLStandIn } from '../helpers/deepl-stand-in';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { sleep } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Jobs that run longer than the queue's heartbeat (D11, D26): pg-boss's heartbeat keeps a live job its worker's
 * however long it runs, so no second run starts beside it, and the engine is asked once per document. The shortest
 * heartbeat pg-boss allows (10 s) and engines slower than twice that.
 */
const HEARTBEAT = { pollingIntervalSeconds: 0.5, heartbeatSeconds: 10 };
const SLOW_SECONDS = 22;

let deepl: Awaited<ReturnType<typeof startDeepLStandIn>>;
let t: TestApp;
let alice: TestAccount;
beforeAll(async () => {
  deepl = await startDeepLStandIn();
  t = await startTestApp({ workers: false, config: { jobs: HEARTBEAT } });
  alice = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(async () => {
  await t.close();
  await deepl.close();
});

const upload = async (app: TestApp, name: string) =>
  (await uploadFile(app, alice.key, await docx({ paragraphs: [words(50)] }), name)).id;
const deeplConfig = () => ({
  engine: 'deepl' as const,
  authKey: deepl.authKey,
  serverUrl: deepl.serverUrl,
  maxRetries: 0,
});

/** A worker app on the suite's database whose translation engine is `engine`. */
const workerWith = (engine: TranslationEngine) =>
  startTestApp({
    databaseOf: t,
    config: { jobs: HEARTBEAT },
    adjust: (services) => {
      services.translation = new TranslationService({
        engine,
        storage: createStorage(t.config.storage),
        files: services.files,
        orders: services.orders,
        logger: createLogger('silent'),
      });
    },
  });

it('runs a translation slower than the heartbeat once, and completes the order', async () => {
  let calls = 0;
  const slow: TranslationEngine = {
    name: 'slow',
    async translate(job) {
      calls++;
      await sleep(SLOW_SECONDS * 1000);
      await copyFile(job.path, job.outputPath);
    },
  };
  const worker = await workerWith(slow);
  try {
    const order = await waitForStatus(
      t,
      alice,
      await paidOrder(t, alice, [await upload(t, 'slow.docx')]),
      ['completed', 'on_hold'],
      90_000,
    );
    expect(order.status).toBe('completed');
    expect(calls).toBe(1);
  } finally {
    await worker.close();
  }
}, 120_000);

it('uploads a document DeepL is slow to translate once', async () => {
  deepl.mode.slowSeconds = SLOW_SECONDS;
  const worker = await workerWith(
    new DeepLTranslationEngine(deepl.authKey, { serverUrl: deepl.serverUrl, maxRetries: 0 }),
  );
  try {
    const before = deepl.calls.filter((call) => call === 'POST /v2/document').length;
    const order = await waitForStatus(
      t,
      alice,
      await paidOrder(t, alice, [await upload(t, 'slow-deepl.docx')]),
      ['completed', 'on_hold'],
      90_000,
    );
    expect(order.status).toBe('completed');
    expect(deepl.calls.filter((call) => call === 'POST /v2/document').length - before).toBe(1);
  } finally {
    deepl.mode.slowSeconds = 0;
    await worker.close();
  }
}, 120_000);

it('resumes the document DeepL already has when the job runs again after a failure, instead of uploading it again', async () => {
  const quiet = await startTestApp({ databaseOf: t, workers: false, config: { translation: deeplConfig() } });
  try {
    const orderId = await paidOrder(quiet, alice, [await upload(quiet, 'resumed.docx')]);
    const uploads = () => deepl.calls.filter((call) => call === 'POST /v2/document').length;
    const before = uploads();
    // The document is uploaded, then DeepL fails while the job waits for it: the run ends as a crash would.
    deepl.mode.statusDown = true;
    await expect(
      quiet.services.translation.translateOrder(quiet.orm.em.fork(), orderId, { retryCount: 0, retryLimit: 5 }),
    ).rejects.toThrow(/Service unavailable/);
    expect(await quiet.orm.em.fork().count(EngineRequest, { order: orderId })).toBe(1);
    deepl.mode.statusDown = false;
    await quiet.services.translation.translateOrder(quiet.orm.em.fork(), orderId, { retryCount: 1, retryLimit: 5 });
    expect(uploads() - before).toBe(1);
    expect(
      (await waitForStatus(quiet, alice, orderId, 'completed')).files.filter(
        (f: { type: string }) => f.type === 'translation',
      ),
    ).toHaveLength(1);
    // The handle is gone with the stored translation.
    expect(await quiet.orm.em.fork().count(EngineRequest, { order: orderId })).toBe(0);
  } finally {
    deepl.mode.statusDown = false;
    await quiet.close();
  }
});

it('holds the order, with its reason, when the queue fails its translation for good (its worker lost on the last try)', async () => {
  const orderId = await paidOrder(t, alice, [await upload(t, 'lost.docx')]);
  // What a worker that died on the job's last try leaves behind: the job running, its heartbeat stopped long ago.
  await t.orm.em
    .fork()
    .getConnection()
    .execute(
      `UPDATE pgboss.job SET state = 'active', retry_count = retry_limit, started_on = now() - interval '1 hour', heartbeat_on = now() - interval '1 hour'
      WHERE name = 'translate-order' AND data->>'orderId' = ?`,
      [orderId],
    );
  const worker = await workerWith({
    name: 'unused',
    translate: () => Promise.reject(new Error('the job should not run again')),
  });
  try {
    const order = await waitForStatus(t, alice, orderId, ['on_hold', 'completed'], 60_000);
    expect(order).toMatchObject({
      status: 'on_hold',
      hold_reason: 'The translation engine kept failing; staff will finish this order.',
    });
  } finally {
    await worker.close();
  }
}, 90_000);
