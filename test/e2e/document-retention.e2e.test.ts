import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { liveProcessIds } from '../../src/db/live-processes';
import type { FileStorage } from '../../src/providers/storage/file-storage';
import { ProviderUnavailableError } from '../../src/shared/errors';
import {
  ApproveTranslationDocument,
  CertificateDocumentsDeletedDocument,
  CompleteCertifiedOrderDocument,
  DeleteOrderDocumentsDocument,
  RetentionOfMeDocument,
  SetAccountRetentionDocument,
  SetLegalHoldDocument,
  SetRetentionDocument,
  StaffOrderDocument,
} from '../graphql/generated';
import { createStaffMember, download } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { memberSession, signInAs } from '../helpers/members';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { pollUntil } from '../helpers/poll';
import { startS3StandIn, type S3StandIn } from '../helpers/s3-stand-in';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 39 / D33: an account's documents are kept for its retention period after an order is finished, then their
 * bytes are deleted from the storage (here S3, through a local stand-in whose bucket the tests read), the records kept
 * with `purged_at`. The clock is the test's: the daily run is called with the time it would run at.
 */
const GONE = { message: "This file was deleted under the account's retention policy." };
const DAY = 86_400_000;

let s3: S3StandIn;
let t: TestApp;
let admin: string;
let ada: Awaited<ReturnType<typeof createStaffMember>>;
let alice: TestAccount;
let aliceAdmin: string;

/** Storage that goes down for every key but those still allowed, as an outage between two files would. */
const outage = { on: false, allowed: new Set<string>() };

beforeAll(async () => {
  s3 = await startS3StandIn('ltk-retention');
  t = await startTestApp({
    config: { storage: s3.storage },
    adjust: (services) => {
      const spied = (services.files as unknown as { deps: { storage: FileStorage } }).deps.storage;
      const remove = spied.delete.bind(spied);
      spied.delete = async (key) => {
        if (outage.on && !outage.allowed.has(key)) throw new ProviderUnavailableError('File storage');
        return remove(key);
      };
    },
  });
  admin = await createStaffToken(t);
  ada = await createStaffMember(t, { name: 'Ada Lovelace', credentials: 'ATA-certified translator no. 123456' });
  alice = await createApprovedAccount(t, admin);
  aliceAdmin = await signInAs(t, admin, alice.email);
}, 120_000);
afterAll(async () => {
  await t.close();
  await s3.close().catch(() => undefined);
});

const sql = <T>(query: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.fork().getConnection().execute(query, params);

const inBucket = (key: string) => s3.objectExists(key);

interface FileRow {
  id: string;
  type: string;
  storage_key: string;
  unstamped_storage_key: string | null;
  purge_reason: string | null;
  purged_at: string | null;
}

/** An order's files (reference files included), as stored. */
const filesOf = (orderId: string) =>
  sql<FileRow>(
    `select f.id, f.type, f.storage_key, f.unstamped_storage_key, f.purge_reason, f.purged_at
       from file_attachments a join files f on f.id = a.file_id where a.order_id = ? order by f.id`,
    [orderId],
  );

const keysOf = (file: FileRow) => [
  file.storage_key,
  ...(file.unstamped_storage_key ? [file.unstamped_storage_key] : []),
];

/** The D33 invariant for each file: recorded purged only once its bytes are gone; gone only once its deletion was decided. */
async function expectConsistent(files: FileRow[]): Promise<void> {
  for (const file of files) {
    const stored = await Promise.all(keysOf(file).map(inBucket));
    if (file.purged_at) expect(stored.every((present) => !present)).toBe(true);
    if (stored.some((present) => !present)) expect(file.purge_reason).not.toBeNull();
  }
}

const order = async (id: string, key = alice.key) =>
  (await t.rest.get(`/api/v1/orders/${id}`, key).expect(200)).body.data as {
    documents_deleted_at: string | null;
    legal_hold: boolean;
    legal_hold_by_staff: boolean;
    completed_at: string | null;
    files: { id: string; type: string; download_url?: string }[];
    certificate: { verification_code: string } | null;
  };

const deleteDocuments = (id: string, key = alice.key) => t.rest.delete(`/api/v1/orders/${id}/documents`, key);

async function completedStandard(account = alice, sources = 1): Promise<string> {
  const ids: string[] = [];
  for (let i = 0; i < sources; i++)
    ids.push((await uploadFile(t, account.key, await docx({ paragraphs: [words(40 + i)] }), `letter-${i}.docx`)).id);
  const id = await paidOrder(t, account, ids, 'standard');
  await waitForStatus(t, account, id, 'completed');
  return id;
}

async function completedCertified(): Promise<{ id: string; code: string }> {
  const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(80)] }), 'affidavit.docx')).id;
  const id = await paidOrder(t, alice, [source], 'certified');
  await waitForStatus(t, alice, id, 'in_review');
  const staffOrder = (await t.gql(StaffOrderDocument, { id }, ada.token)).data!.staffOrder!;
  for (const file of staffOrder.files.filter((candidate) => candidate.type === 'TRANSLATION'))
    expect((await t.gql(ApproveTranslationDocument, { fileId: file.id }, ada.token)).errors).toBeUndefined();
  expect((await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, ada.token)).errors).toBeUndefined();
  const done = await order(id);
  return { id, code: done.certificate!.verification_code };
}

/** The daily run, at the time the test says: `days` after now. */
const dailyRun = (days: number) =>
  t.services.retention.purgeExpired(t.orm.em.fork(), new Date(Date.now() + days * DAY));

const audits = (action: string, resourceId: string) =>
  sql<{ details: { reason: string } }>(
    'select details from audit_entries where action = ? and resource_id = ? order by created_at',
    [action, resourceId],
  );

describe('the retention period', () => {
  it('is 90 days by default, set by admin members and admin staff within 1 to 3650 days or null, and audited', async () => {
    expect((await t.gql(RetentionOfMeDocument, {}, alice.key)).data!.me.retentionDays).toBe(90);
    expect((await t.rest.get('/api/v1/me', alice.key).expect(200)).body.data.retention_days).toBe(90);
    const set = await t.gql(SetRetentionDocument, { days: 30 }, aliceAdmin);
    expect(set.data!.setRetention.retentionDays).toBe(30);
    for (const days of [0, 3651])
      expect((await t.gql(SetRetentionDocument, { days }, aliceAdmin)).errors?.[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        errors: { days: [expect.any(String)] },
      });
    expect((await t.gql(SetRetentionDocument, { days: null }, aliceAdmin)).data!.setRetention.retentionDays).toBeNull();
    const member = await memberSession(t, admin, aliceAdmin, 'MEMBER');
    expect((await t.gql(SetRetentionDocument, { days: 5 }, member.session)).errors?.[0].extensions?.code).toBe(
      'FORBIDDEN',
    );
    const desk = await createStaffMember(t, { role: StaffRole.DESK, name: 'Dee Desk' });
    expect(
      (await t.gql(SetAccountRetentionDocument, { accountId: alice.id, days: 7 }, desk.token)).errors?.[0].extensions
        ?.code,
    ).toBe('FORBIDDEN');
    const byStaff = await t.gql(SetAccountRetentionDocument, { accountId: alice.id, days: 90 }, admin);
    expect(byStaff.data!.setAccountRetention.retentionDays).toBe(90);
    const trail = await audits('account.retention', alice.id);
    expect(trail.map((row) => row.details)).toEqual([
      { from_days: 90, to_days: 30 },
      { from_days: 30, to_days: null },
      { from_days: null, to_days: 90 },
    ]);
  });

  it("deletes a finished order's documents from the bucket once the period passed, keeping the records", async () => {
    const id = await completedStandard();
    const before = await order(id);
    const translation = before.files.find((file) => file.type === 'translation')!;
    const link = translation.download_url!;
    const files = await filesOf(id);
    expect(files).toHaveLength(2);
    for (const file of files) expect(await inBucket(file.storage_key)).toBe(true);

    await dailyRun(89);
    expect((await filesOf(id)).every((file) => file.purged_at === null)).toBe(true);

    const run = await dailyRun(91);
    expect(run.orders).toBeGreaterThanOrEqual(1);
    for (const file of await filesOf(id)) {
      expect(file).toMatchObject({ purge_reason: 'retention', purged_at: expect.any(String) });
      expect(await inBucket(file.storage_key)).toBe(false);
      expect(await audits('file.purged', file.id)).toEqual([{ details: { reason: 'retention', order_ids: [id] } }]);
    }
    const after = await order(id);
    expect(after.documents_deleted_at).not.toBeNull();
    expect(after.files.every((file) => file.download_url === undefined)).toBe(true);
    const res = await t.rest.get(`/api/v1/files/${translation.id}`, alice.key).expect(200);
    expect(res.body.data.purged_at).toEqual(expect.any(String));
    expect(res.body.data.download_url).toBeUndefined();
    const gone = await t.rest.raw().get(link.replace(t.config.appUrl, '')).expect(410);
    expect(gone.body).toEqual(GONE);
    // Nothing left to do: the next run decides nothing for this order again.
    expect((await filesOf(id)).every((file) => file.purged_at !== null)).toBe(true);
    expect((await audits('order.documents_deleted', id)).length).toBe(1);
    // A deleted source cannot be quoted again: its bytes are gone.
    const source = after.files.find((file) => file.type === 'source')!;
    const quote = await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [source.id] },
        alice.key,
      )
      .expect(422);
    expect(quote.body.errors.file_ids).toEqual([expect.stringContaining('deleted')]);
  });

  it('follows a change of period for orders already finished, and never deletes what an account keeps', async () => {
    const bob = await createApprovedAccount(t, admin);
    const id = await completedStandard(bob);
    await t.gql(SetAccountRetentionDocument, { accountId: bob.id, days: null }, admin);
    await dailyRun(365 * 20);
    expect((await filesOf(id)).every((file) => file.purge_reason === null)).toBe(true);
    await t.gql(SetAccountRetentionDocument, { accountId: bob.id, days: 1 }, admin);
    await dailyRun(0.5);
    expect((await filesOf(id)).every((file) => file.purge_reason === null)).toBe(true);
    await dailyRun(2);
    const files = await filesOf(id);
    expect(files.every((file) => file.purged_at !== null)).toBe(true);
    for (const file of files) expect(await inBucket(file.storage_key)).toBe(false);
  });

  it('is registered as one daily schedule, run once across all processes', async () => {
    expect(await sql("select name, cron from pgboss.schedule where name = 'document-retention'")).toEqual([
      { name: 'document-retention', cron: '17 3 * * *' },
    ]);
  });

  it('finds the due orders on their own partial index, in order, with no sort', async () => {
    const em = t.orm.em.fork();
    const plan = await em.transactional(async (tx) => {
      // The test database is small enough for a sequential scan: the index must still serve the query's shape.
      for (const setting of ['enable_seqscan', 'enable_bitmapscan'])
        await tx.getConnection().execute(`set local ${setting} = off`, [], 'run', tx.getTransactionContext());
      return tx
        .getConnection()
        .execute<{ 'QUERY PLAN': string }[]>(
          `explain select id from orders where documents_expire_at <= now() order by documents_expire_at, id limit 100`,
          [],
          'all',
          tx.getTransactionContext(),
        );
    });
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('orders_documents_expiry');
    expect(text).not.toContain('Sort');
  });
});

describe('a certified order', () => {
  it('loses its stamped and unstamped translations and its source, keeps its certificate, and /verify says when', async () => {
    const { id, code } = await completedCertified();
    const files = await filesOf(id);
    const translation = files.find((file) => file.type === 'translation')!;
    expect(translation.unstamped_storage_key).not.toBeNull();
    const certificate = files.find((file) => file.type === 'certificate')!;
    const hashes = (await t.gql(CertificateDocumentsDeletedDocument, { code })).data!.certificate!.documents;

    await deleteDocuments(id).expect(204);

    for (const file of await filesOf(id)) {
      const kept = file.id === certificate.id;
      expect(file.purged_at === null).toBe(kept);
      for (const key of keysOf(file)) expect(await inBucket(key)).toBe(kept);
      if (!kept)
        expect(await audits('file.purged', file.id)).toEqual([
          { details: { reason: 'client_request', order_ids: [id] } },
        ]);
    }
    const after = await order(id);
    const certificateEntry = after.files.find((file) => file.type === 'certificate')!;
    expect(await download(t, certificateEntry.download_url!)).toHaveLength(
      Number(
        (await sql<{ size_bytes: number }>('select size_bytes from files where id = ?', [certificate.id]))[0]
          .size_bytes,
      ),
    );
    const verified = await t.gql(CertificateDocumentsDeletedDocument, { code });
    expect(verified.data!.certificate).toMatchObject({
      documentsDeletedAt: after.documents_deleted_at,
      documents: hashes,
    });
    const rest = await t.rest.get(`/api/v1/certificates/${code}`).expect(200);
    expect(rest.body.data).toMatchObject({ documents_deleted_at: after.documents_deleted_at });
    const page = await t.rest.raw().get(`/verify/${code}`).expect(200);
    expect(page.text).toContain('The documents themselves were deleted on');
    expect(page.text).toContain(hashes[0].sha256);

    const revision = await t.rest.post(`/api/v1/orders/${id}/revisions`, { reason: 'Fix the dates.' }, alice.key);
    expect(revision.status).toBe(422);
    expect(revision.body.errors.documents).toEqual([expect.stringContaining('deleted')]);
  });
});

describe('a deletion asked for now', () => {
  it('is refused for an open order, under a hold, and for another account; repeating it is harmless', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(30)] }), 'open.docx')).id;
    const quote = await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [source] },
        alice.key,
      )
      .expect(201);
    const open = (await t.rest.post(`/api/v1/quotes/${quote.body.data.id}/convert`, undefined, alice.key).expect(201))
      .body.data.id;
    const refused = await deleteDocuments(open).expect(422);
    expect(refused.body.errors.status).toEqual([expect.stringContaining('pending_payment')]);

    const id = await completedStandard();
    const bob = await createApprovedAccount(t, admin);
    await deleteDocuments(id, bob.key).expect(404);
    const held = await t.gql(
      SetLegalHoldDocument,
      { orderId: id, on: true, reason: 'Litigation: Doe v. Roe' },
      aliceAdmin,
    );
    expect(held.data!.setLegalHold).toMatchObject({ legalHold: true, legalHoldReason: 'Litigation: Doe v. Roe' });
    expect((await deleteDocuments(id).expect(422)).body.errors.legal_hold).toEqual([expect.any(String)]);
    await dailyRun(10_000);
    expect((await filesOf(id)).every((file) => file.purge_reason === null)).toBe(true);

    // The desk's hold (over the client's, say for a subpoena) is the desk's to change or release, not the client's.
    const desk = await createStaffMember(t, { role: StaffRole.DESK, name: 'Dee Desk' });
    const subpoena = await t.gql(
      SetLegalHoldDocument,
      { orderId: id, on: true, reason: 'Subpoena 22-114' },
      desk.token,
    );
    expect(subpoena.data!.setLegalHold).toMatchObject({ legalHold: true, legalHoldByStaff: true });
    for (const on of [false, true]) {
      const lifted = await t.gql(SetLegalHoldDocument, { orderId: id, on, reason: 'Ours now' }, aliceAdmin);
      expect(lifted.errors?.[0].extensions).toEqual({
        code: 'BAD_USER_INPUT',
        errors: { legalHold: ['The desk placed this legal hold; only the desk can change or release it.'] },
      });
    }
    expect(await order(id)).toMatchObject({ legal_hold: true, legal_hold_by_staff: true });
    const released = await t.gql(SetLegalHoldDocument, { orderId: id, on: false, reason: 'Case closed' }, desk.token);
    expect(released.data!.setLegalHold).toMatchObject({ legalHold: false, legalHoldByStaff: false });
    expect((await audits('order.legal_hold', id)).length + (await audits('order.legal_hold_released', id)).length).toBe(
      3,
    );
    // Released, the order falls due from its completion again.
    await dailyRun(91);
    expect((await filesOf(id)).every((file) => file.purged_at !== null)).toBe(true);
    await deleteDocuments(id).expect(204);
    const late = await t.gql(SetLegalHoldDocument, { orderId: id, on: true, reason: 'Too late' }, aliceAdmin);
    expect(late.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { legalHold: [expect.any(String)] },
    });
    const noReason = await t.gql(SetLegalHoldDocument, { orderId: id, on: true }, aliceAdmin);
    expect(noReason.errors?.[0].extensions).toMatchObject({ errors: { reason: [expect.any(String)] } });
  });

  it('keeps a source another open order or a priced quote still uses', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(50)] }), 'shared.docx')).id;
    const id = await paidOrder(t, alice, [source], 'standard');
    await waitForStatus(t, alice, id, 'completed');
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'fr', service_type: 'standard', file_ids: [source] },
        alice.key,
      )
      .expect(201);
    const answer = await t.gql(DeleteOrderDocumentsDocument, { id }, alice.key);
    expect(answer.data!.deleteOrderDocuments.files.every((file) => file.downloadUrl === null)).toBe(true);
    const files = await filesOf(id);
    const shared = files.find((file) => file.id === source)!;
    expect(shared).toMatchObject({ purge_reason: null, purged_at: null });
    expect(await inBucket(shared.storage_key)).toBe(true);
    const translation = files.find((file) => file.type === 'translation')!;
    expect(translation.purged_at).not.toBeNull();
    expect(await inBucket(translation.storage_key)).toBe(false);
  });
});

describe("a revision's documents", () => {
  it('go with its reference files; a source its original still keeps stays', async () => {
    const original = await completedStandard();
    const reference = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Spell it Müller.'] }), 'names.docx'))
      .id;
    const revised = await t.rest
      .post(`/api/v1/orders/${original}/revisions`, { reason: 'The surname.', file_ids: [reference] }, alice.key)
      .expect(201);
    const revision = revised.body.data.id as string;
    await waitForStatus(t, alice, revision, 'completed');
    await deleteDocuments(revision).expect(204);
    const files = await filesOf(revision);
    const referenceRow = files.find((file) => file.id === reference)!;
    expect(referenceRow.purged_at).not.toBeNull();
    expect(await inBucket(referenceRow.storage_key)).toBe(false);
    // The sources it shares with the original, whose own documents are not due: kept for it.
    for (const file of files.filter((row) => row.type === 'source' && row.id !== reference)) {
      expect(file.purge_reason).toBeNull();
      expect(await inBucket(file.storage_key)).toBe(true);
    }
    expect(files.find((file) => file.type === 'translation')!.purged_at).not.toBeNull();
  });
});

describe('a deletion that fails half-way', () => {
  it('never records as purged a file whose bytes remain, nor keeps serving one it decided to delete; it is finished later', async () => {
    const id = await completedStandard(alice, 3);
    const files = await filesOf(id);
    expect(files).toHaveLength(6);
    // The storage goes down after the first file's bytes.
    outage.allowed = new Set(keysOf(files[0]));
    outage.on = true;
    try {
      await deleteDocuments(id).expect(503);
      // The purge-files job queued with the decision may reach the first file too: either records it, once.
      const half = await pollUntil(
        () => filesOf(id),
        (rows) => rows[0].purged_at !== null,
        { timeoutMs: 10_000, intervalMs: 100, failure: () => 'the first file was never recorded' },
      );
      expect(half.slice(1).every((file) => file.purge_reason === 'client_request' && file.purged_at === null)).toBe(
        true,
      );
      await expectConsistent(half);
      for (const file of half.slice(1)) expect(await inBucket(file.storage_key)).toBe(true);
      // Decided: no link, and an old one answers 410 though the bytes are still there.
      expect((await order(id)).files.every((file) => file.download_url === undefined)).toBe(true);
      // The sweep of unclaimed bytes keeps them: their rows still claim them until the deletion finishes.
      const swept = await t.services.files.sweepStorage(t.orm.em.fork(), () => liveProcessIds(t.orm.em.fork()));
      expect(swept.removed.filter((key) => half.some((file) => keysOf(file).includes(key)))).toEqual([]);
      // The daily run tries again and stops at the storage again, recording nothing it did not delete.
      await expect(dailyRun(0)).rejects.toThrow(ProviderUnavailableError);
      await expectConsistent(await filesOf(id));
    } finally {
      outage.on = false;
    }
    // What the purge-files job runs, once the storage is back.
    await t.services.retention.finishUnfinished(t.orm.em.fork());
    const done = await filesOf(id);
    expect(done.every((file) => file.purged_at !== null)).toBe(true);
    await expectConsistent(done);
    for (const file of done) expect(await audits('file.purged', file.id)).toHaveLength(1);
    await deleteDocuments(id).expect(204);
  });
});

describe('races', () => {
  it('a download racing the deletion gets the whole file or 410, never a torn one or an error', async () => {
    const id = await completedStandard();
    const translation = (await order(id)).files.find((file) => file.type === 'translation')!;
    const [row] = await sql<{ sha256: string }>('select sha256 from files where id = ?', [translation.id]);
    const path = translation.download_url!.replace(t.config.appUrl, '');
    const downloads = Array.from({ length: 8 }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 5));
      return t.rest
        .raw()
        .get(path)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
    });
    const [deleted, ...answers] = await Promise.all([deleteDocuments(id), ...downloads]);
    expect(deleted.status).toBe(204);
    for (const answer of answers) {
      expect([200, 410]).toContain(answer.status);
      if (answer.status === 200)
        expect(
          createHash('sha256')
            .update(answer.body as Buffer)
            .digest('hex'),
        ).toBe(row.sha256);
      else expect(JSON.parse((answer.body as Buffer).toString())).toEqual(GONE);
    }
    expect((await t.rest.raw().get(path)).status).toBe(410);
  });

  it('a legal hold racing the deletion: exactly one wins, and the files agree with it', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await completedStandard();
      const [deleted, held] = await Promise.all([
        deleteDocuments(id),
        t.gql(SetLegalHoldDocument, { orderId: id, on: true, reason: `Round ${round}` }, aliceAdmin),
      ]);
      const holdWon = held.errors === undefined;
      expect(deleted.status).toBe(holdWon ? 422 : 204);
      const files = await filesOf(id);
      expect(files.every((file) => (file.purged_at === null) === holdWon)).toBe(true);
      await expectConsistent(files);
    }
  });

  it("the desk's hold racing the client's release ends held by the desk, whichever runs first", async () => {
    const desk = await createStaffMember(t, { role: StaffRole.DESK, name: 'Dora Desk' });
    for (let round = 0; round < 3; round++) {
      const id = await completedStandard();
      const own = await t.gql(SetLegalHoldDocument, { orderId: id, on: true, reason: 'Our litigation' }, aliceAdmin);
      expect(own.data!.setLegalHold).toMatchObject({ legalHold: true, legalHoldByStaff: false });
      const [subpoena, released] = await Promise.all([
        t.gql(SetLegalHoldDocument, { orderId: id, on: true, reason: `Subpoena ${round}` }, desk.token),
        t.gql(SetLegalHoldDocument, { orderId: id, on: false, reason: 'Done' }, aliceAdmin),
      ]);
      expect(subpoena.errors).toBeUndefined();
      // The client's release went first (and the desk held it again), or found the desk's hold and was refused.
      if (released.errors) expect(released.errors[0].extensions?.code).toBe('BAD_USER_INPUT');
      const [row] = await sql<{ legal_hold: boolean; legal_hold_by_staff: boolean }>(
        'SELECT legal_hold, legal_hold_by_staff FROM orders WHERE id = ?',
        [id],
      );
      expect(row).toEqual({ legal_hold: true, legal_hold_by_staff: true });
      expect((await deleteDocuments(id).expect(422)).body.errors.legal_hold).toEqual([expect.any(String)]);
    }
  });

  it('a revision request racing the deletion: either the revision keeps its sources or it is refused', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await completedStandard();
      const [deleted, revised] = await Promise.all([
        deleteDocuments(id),
        t.rest.post(`/api/v1/orders/${id}/revisions`, { reason: 'Fix the dates.' }, alice.key),
      ]);
      expect(deleted.status).toBe(204);
      const files = await filesOf(id);
      await expectConsistent(files);
      if (revised.status === 201) {
        // The open revision translates the same sources: they are kept for it.
        for (const file of files.filter((row) => row.type === 'source')) expect(file.purge_reason).toBeNull();
      } else {
        expect(revised.status).toBe(422);
        expect(revised.body.errors.documents).toEqual([expect.any(String)]);
      }
    }
  });
});

describe('on local storage', () => {
  it('deletes the files from the disk as from a bucket, and keeps the records', async () => {
    const local = await startTestApp();
    try {
      const firm = await createApprovedAccount(local, await createStaffToken(local));
      const source = (await uploadFile(local, firm.key, await docx({ paragraphs: [words(40)] }), 'local.docx')).id;
      const id = await paidOrder(local, firm, [source], 'standard');
      await waitForStatus(local, firm, id, 'completed');
      const { storage } = local.config;
      if (storage.driver !== 'local') throw new Error('expected local storage');
      const rows = await local.orm.em
        .fork()
        .getConnection()
        .execute<FileRow[]>(
          'select f.storage_key, f.purged_at from file_attachments a join files f on f.id = a.file_id where a.order_id = ?',
          [id],
        );
      const onDisk = () =>
        rows.map((row) => existsSync(join(storage.dir, row.storage_key.slice(0, 2), row.storage_key)));
      expect(onDisk()).toEqual([true, true]);
      await local.services.retention.purgeExpired(local.orm.em.fork(), new Date(Date.now() + 91 * DAY));
      expect(onDisk()).toEqual([false, false]);
      const file = await local.rest.get(`/api/v1/files/${source}`, firm.key).expect(200);
      expect(file.body.data.purged_at).toEqual(expect.any(String));
    } finally {
      await local.close();
    }
  });
});
