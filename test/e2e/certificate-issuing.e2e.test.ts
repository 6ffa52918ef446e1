import { createHash } from 'node:crypto';
import {
  ApproveTranslationDocument,
  AttachReviewedTranslationDocument,
  CompleteCertifiedOrderDocument,
  StaffCancelOrderDocument,
  StaffOrderDocument,
} from '../graphql/generated';
import { createStaffMember, download } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { pollUntil, sleep } from '../helpers/poll';
import { startTestApp, type GraphQLResult, type TestApp } from '../helpers/test-app';
import { createStorage } from '../../src/providers/storage/create-storage';

/**
 * D20 with no lock held (docs/architecture.md "How a certificate is issued"): a completion commits its intent,
 * stamps, draws, signs and stores with the order unlocked, then applies the result with the order locked again, or
 * drops it. Each test ends with the store as the rows describe it: no pending intent, no bytes no file claims.
 */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 3);

let t: TestApp;
let alice: TestAccount;
let ada: Awaited<ReturnType<typeof createStaffMember>>;
let grace: Awaited<ReturnType<typeof createStaffMember>>;
beforeAll(async () => {
  t = await startTestApp();
  ada = await createStaffMember(t, { name: 'Ada Lovelace', credentials: 'ATA-certified translator no. 123456' });
  grace = await createStaffMember(t, { name: 'Grace Hopper' });
  alice = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => t.close());

const sql = async <T>(query: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.fork().getConnection().execute(query, params);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A certified order of one DOCX, in review, its machine translation approved by Ada. */
async function reviewedOrder(): Promise<{ id: string; translationId: string; sourceId: string }> {
  const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(80)] }), 'affidavit.docx')).id;
  const id = await paidOrder(t, alice, [source], 'certified');
  await waitForStatus(t, alice, id, 'in_review');
  const translation = (await t.gql(StaffOrderDocument, { id }, ada.token)).data!.staffOrder!.files.find(
    (file) => file.type === 'TRANSLATION',
  )!;
  expect((await t.gql(ApproveTranslationDocument, { fileId: translation.id }, ada.token)).errors).toBeUndefined();
  // The translation's own analysis job writes its row; once it has, a lock on that row can only be the completion's.
  await pollUntil(
    () => sql<{ analysis_status: string }>('SELECT analysis_status FROM files WHERE id = ?', [translation.id]),
    ([row]) => row.analysis_status !== 'pending',
    { failure: () => `translation ${translation.id} still waits for its analysis` },
  );
  return { id, translationId: translation.id, sourceId: source };
}

const complete = (id: string) => t.gql(CompleteCertifiedOrderDocument, { orderId: id }, ada.token);
const cancel = (id: string) =>
  t.gql(StaffCancelOrderDocument, { id, reason: 'The client withdrew the matter' }, grace.token);
const refusal = (answer: GraphQLResult<unknown>) => answer.errors?.[0].extensions?.errors;

/** The order as the rows say: status, translation bytes, certificates and the intent. */
async function state(id: string, translationId: string) {
  const [order] = await sql<{ status: string }>('SELECT status FROM orders WHERE id = ?', [id]);
  const [translation] = await sql<{ storage_key: string; sha256: string }>(
    'SELECT storage_key, sha256 FROM files WHERE id = ?',
    [translationId],
  );
  const certificates = await sql<{ code: string }>('SELECT code FROM certificates WHERE order_id = ?', [id]);
  const certificateFiles = await sql<{ id: string }>(
    `SELECT f.id FROM files f JOIN file_attachments a ON a.file_id = f.id WHERE a.order_id = ? AND f.type = 'certificate'`,
    [id],
  );
  const pending = await sql<{ code: string }>('SELECT code FROM pending_certificates WHERE order_id = ?', [id]);
  return {
    status: order.status,
    translation,
    certificates: certificates.length,
    certificateFiles: certificateFiles.length,
    pending: pending.length,
  };
}

/** Stored bytes that no file row claims: a completion that did not go through must leave none. */
async function unclaimedKeys(): Promise<string[]> {
  const claimed = new Set(
    (
      await sql<{ storage_key: string }>(
        'SELECT storage_key FROM files UNION SELECT unstamped_storage_key FROM files WHERE unstamped_storage_key IS NOT NULL',
      )
    ).map((row) => row.storage_key),
  );
  const unclaimed: string[] = [];
  for await (const { key } of createStorage(t.config.storage).keys()) if (!claimed.has(key)) unclaimed.push(key);
  return unclaimed;
}

/** Holds every stamping at the document sandbox's door until released: the completion is then between its intent and its apply. */
function holdStamping() {
  const documents = t.services.documents;
  const stamp = documents.stamp.bind(documents);
  let arrived!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = jest.spyOn(documents, 'stamp').mockImplementation(async (...args) => {
    arrived();
    await released;
    return stamp(...args);
  });
  // Restoring also releases: a test that failed while holding must not leave its completion waiting for ever.
  const restore = () => {
    release();
    held.mockRestore();
  };
  return { reached, release, restore };
}

/** Locks the row with NOWAIT in a transaction of its own: throws if anyone holds it. */
const lockNow = (table: 'orders' | 'files', id: string) =>
  t.orm.em
    .fork()
    .transactional((em) =>
      em
        .getConnection()
        .execute(`SELECT id FROM ${table} WHERE id = ? FOR UPDATE NOWAIT`, [id], 'all', em.getTransactionContext()),
    );

afterEach(async () => {
  expect(await sql('SELECT code FROM pending_certificates')).toEqual([]);
  expect(await unclaimedKeys()).toEqual([]);
});

describe('a completion holds no lock while it stamps, draws, signs and stores', () => {
  it('leaves the order and its translation free meanwhile, and refuses a second completion until it is done', async () => {
    const { id, translationId } = await reviewedOrder();
    const hold = holdStamping();
    try {
      const first = complete(id);
      await hold.reached;
      await expect(lockNow('orders', id)).resolves.toBeDefined();
      await expect(lockNow('files', translationId)).resolves.toBeDefined();
      expect((await state(id, translationId)).pending).toBe(1);
      expect(refusal(await complete(id))).toEqual({ status: ['The order is being certified.'] });
      hold.release();
      expect((await first).errors).toBeUndefined();
    } finally {
      hold.restore();
    }
    expect(await state(id, translationId)).toMatchObject({
      status: 'completed',
      certificates: 1,
      certificateFiles: 1,
      pending: 0,
    });
  });

  it('two completions at once: one certificate, the translation stamped once (real concurrent requests)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { id, translationId } = await reviewedOrder();
      const answers = await Promise.all([complete(id), sleep(round * 3).then(() => complete(id))]);
      expect({ round, winners: answers.filter((answer) => !answer.errors).length }).toEqual({ round, winners: 1 });
      const loser = answers.find((answer) => answer.errors)!;
      expect(['Cannot complete the order while the status is completed.', 'The order is being certified.']).toContain(
        refusal(loser)!.status[0],
      );
      const after = await state(id, translationId);
      expect({ round, ...after }).toMatchObject({
        round,
        status: 'completed',
        certificates: 1,
        certificateFiles: 1,
        pending: 0,
      });
      const { data } = await t.gql(StaffOrderDocument, { id }, ada.token);
      const delivered = await download(
        t,
        data!.staffOrder!.files.find((file) => file.id === translationId)!.downloadUrl!,
      );
      expect(data!.staffOrder!.certificate!.documents[0].sha256).toBe(sha256(delivered));
      expect(after.translation.sha256).toBe(sha256(delivered));
    }
  });
});

describe('the world moves on while the certificate is made', () => {
  it('a cancel meanwhile wins; the completion drops its bytes and leaves the translation as it was', async () => {
    const { id, translationId } = await reviewedOrder();
    const before = await state(id, translationId);
    const hold = holdStamping();
    try {
      const completing = complete(id);
      await hold.reached;
      expect((await cancel(id)).errors).toBeUndefined();
      hold.release();
      expect(refusal(await completing)).toEqual({
        status: ['Cannot complete the order while the status is cancelled.'],
      });
    } finally {
      hold.restore();
    }
    expect(await state(id, translationId)).toEqual({ ...before, status: 'cancelled' });
  });

  it('completion racing a cancel: one of them, never both (real concurrent requests)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { id, translationId } = await reviewedOrder();
      const before = await state(id, translationId);
      const [completed, cancelled] = await Promise.all([complete(id), sleep(round * 150).then(() => cancel(id))]);
      expect({ round, winners: [completed, cancelled].filter((answer) => !answer.errors).length }).toEqual({
        round,
        winners: 1,
      });
      const after = await state(id, translationId);
      if (completed.errors) {
        expect(refusal(completed)!.status[0]).toBe('Cannot complete the order while the status is cancelled.');
        expect({ round, ...after }).toEqual({ round, ...before, status: 'cancelled' });
      } else {
        expect(refusal(cancelled)).toEqual({ status: ['Cannot cancel the order while the status is completed.'] });
        expect({ round, ...after }).toMatchObject({
          round,
          status: 'completed',
          certificates: 1,
          certificateFiles: 1,
          pending: 0,
        });
      }
    }
  });

  it('a translation replaced meanwhile: refused, nothing issued, and the order completes on the next try', async () => {
    const { id, translationId, sourceId } = await reviewedOrder();
    const hold = holdStamping();
    try {
      const completing = complete(id);
      await hold.reached;
      const replaced = await t.gqlUpload(
        AttachReviewedTranslationDocument,
        { orderId: id, sourceFileId: sourceId },
        { content: await docx({ paragraphs: ['Affidavit (reviewed).'] }), filename: 'affidavit.en.docx' },
        { token: ada.token },
      );
      expect(replaced.errors).toBeUndefined();
      hold.release();
      expect(refusal(await completing)).toEqual({
        files: ['A translation was replaced while the certificate was being made: complete the order again.'],
      });
    } finally {
      hold.restore();
    }
    expect(await state(id, translationId)).toMatchObject({
      status: 'in_review',
      certificates: 0,
      certificateFiles: 0,
      pending: 0,
    });
    expect((await complete(id)).errors).toBeUndefined();
  });
});

describe('a completion that fails or is cut short', () => {
  it('a translation that is not a readable document: refused, the order unchanged, and completable after a replacement', async () => {
    const { id, sourceId } = await reviewedOrder();
    const unreadable = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(words(200, 'garbage'))]);
    const attached = await t.gqlUpload(
      AttachReviewedTranslationDocument,
      { orderId: id, sourceFileId: sourceId },
      { content: unreadable, filename: 'affidavit.en.pdf' },
      { token: ada.token },
    );
    const broken = attached.data!.attachReviewedTranslation.files.find((file) => file.type === 'TRANSLATION')!;
    const before = await state(id, broken.id);

    const refused = refusal(await complete(id));
    expect(Object.keys(refused!)).toEqual(['translation']);
    expect(refused!.translation[0]).toMatch(
      /^The translation affidavit\.en\.pdf cannot be certified: .+ Replace it with a readable file\.$/,
    );
    expect(await state(id, broken.id)).toEqual(before);
    expect(before).toMatchObject({ status: 'in_review', certificates: 0, pending: 0 });

    const replaced = await t.gqlUpload(
      AttachReviewedTranslationDocument,
      { orderId: id, sourceFileId: sourceId },
      { content: await docx({ paragraphs: ['Affidavit (readable).'] }), filename: 'affidavit.en.docx' },
      { token: ada.token },
    );
    expect(replaced.errors).toBeUndefined();
    expect((await complete(id)).errors).toBeUndefined();
    const translationId = replaced.data!.attachReviewedTranslation.files.find(
      (file) => file.type === 'TRANSLATION',
    )!.id;
    expect(await state(id, translationId)).toMatchObject({
      status: 'completed',
      certificates: 1,
      certificateFiles: 1,
      pending: 0,
    });
  });

  it('takes over the intent of a process that died between its steps, and refuses while a live one works', async () => {
    const { id, translationId } = await reviewedOrder();
    const intend = (code: string, processId: number) =>
      sql('INSERT INTO pending_certificates (code, order_id, process_id, started_at) VALUES (?, ?, ?, now())', [
        code,
        id,
        processId,
      ]);
    await intend('LIVE-LIVE-LIVE-LIVE', t.claim.id);
    expect(refusal(await complete(id))).toEqual({ status: ['The order is being certified.'] });
    await sql('DELETE FROM pending_certificates WHERE order_id = ?', [id]);

    await intend('DEAD-DEAD-DEAD-DEAD', 2_147_483_000);
    expect((await complete(id)).errors).toBeUndefined();
    const [certificate] = await sql<{ code: string }>('SELECT code FROM certificates WHERE order_id = ?', [id]);
    expect(certificate.code).not.toBe('DEAD-DEAD-DEAD-DEAD');
    expect(await state(id, translationId)).toMatchObject({ status: 'completed', certificates: 1, pending: 0 });
  });
});
