import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { liveProcessIds } from '../../src/db/live-processes';
import {
  ApproveTranslationDocument,
  CertificateStandingDocument,
  CompleteCertifiedOrderDocument,
  OrderRevisionsDocument,
  RequestRevisionDocument,
  StaffCancelOrderDocument,
  StaffOrderDocument,
  StaffRevisionDocument,
} from '../graphql/generated';
import { createStaffMember, download } from '../helpers/certified';
import { docx, docxParts, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { apiWordingIn } from '../helpers/mail';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { startTestApp, type GraphQLResult, type TestApp } from '../helpers/test-app';

/**
 * Issue 34 / D30: a free revision of a completed order is a new order linked to it, total 0, nothing to pay. A
 * certified one starts in review with copies of the original's translations; its certificate supersedes the original's.
 */
let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let ada: Awaited<ReturnType<typeof createStaffMember>>;
beforeAll(async () => {
  t = await startTestApp();
  const admin = await createStaffToken(t);
  ada = await createStaffMember(t, { name: 'Ada Lovelace', credentials: 'ATA-certified translator no. 123456' });
  alice = await createApprovedAccount(t, admin);
  bob = await createApprovedAccount(t, admin);
});
afterAll(() => t.close());

const sql = async <T>(query: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.fork().getConnection().execute(query, params);
const refusal = (answer: GraphQLResult<unknown>) => answer.errors?.[0].extensions;
const revise = (id: string, body: unknown, key = alice.key) => t.rest.post(`/api/v1/orders/${id}/revisions`, body, key);

/** Approves every translation of a certified order in review and completes it: its certificate's code. */
async function approveAndComplete(id: string): Promise<string> {
  const order = (await t.gql(StaffOrderDocument, { id }, ada.token)).data!.staffOrder!;
  for (const file of order.files.filter((candidate) => candidate.type === 'TRANSLATION'))
    expect((await t.gql(ApproveTranslationDocument, { fileId: file.id }, ada.token)).errors).toBeUndefined();
  const completed = await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, ada.token);
  expect(completed.errors).toBeUndefined();
  const polled = await waitForStatus(t, alice, id, 'completed');
  return (polled.certificate as { verification_code: string }).verification_code;
}

async function completedCertified(): Promise<{ id: string; code: string; sourceId: string }> {
  const sourceId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(80)] }), 'affidavit.docx')).id;
  const id = await paidOrder(t, alice, [sourceId], 'certified');
  await waitForStatus(t, alice, id, 'in_review');
  return { id, code: await approveAndComplete(id), sourceId };
}

/** The revision requests e-mailed to the desk about revision `number`. */
const toldDesk = (number: string) =>
  sql<{ to: string; subject: string; text: string }>(
    `SELECT "to", subject, text FROM sent_emails WHERE kind = 'revision_requested' AND subject LIKE ?`,
    [`%${number}%`],
  );

/** A standard order completed by the engine; `quote` adds to its quote (instructions, say). */
async function completedStandard(account = alice, quote: object = {}): Promise<string> {
  const source = (await uploadFile(t, account.key, await docx({ paragraphs: [words(60)] }), 'letter.docx')).id;
  const id = await paidOrder(t, account, [source], 'standard', quote);
  await waitForStatus(t, account, id, 'completed');
  return id;
}

describe('a certified revision', () => {
  it('is a new order in review with draft copies, nothing to pay, linked both ways; its certificate supersedes the original', async () => {
    const original = await completedCertified();
    const before = await t.rest.get(`/api/v1/orders/${original.id}`, alice.key).expect(200);
    const reference = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Spell it Müller.'] }), 'names.docx'))
      .id;

    const res = await revise(original.id, { reason: 'The surname is misspelt on page 1.', file_ids: [reference] });
    expect(res.status).toBe(201);
    const revision = res.body.data;
    expect(res.headers.location).toBe(`${t.config.appUrl}/api/v1/orders/${revision.id}`);
    expect(revision).toMatchObject({
      status: 'in_review',
      service_type: 'certified',
      total_cents: 0,
      revision_of: { id: original.id, number: before.body.data.number },
      revision_reason: 'The surname is misspelt on page 1.',
      reference_file_ids: [reference],
      revisions: [],
      payment: { provider: 'none', provider_order_id: null, approval_url: null, receipt_url: null },
    });
    expect(revision.payment.paid_at).not.toBeNull();
    // The source again, and a copy of the delivered translation (a new file of the same source); the reference file is
    // not one of the order's files.
    const [originalTranslation] = await sql<{ id: string }>(
      `SELECT f.id FROM files f JOIN file_attachments a ON a.file_id = f.id WHERE a.order_id = ? AND f.type = 'translation'`,
      [original.id],
    );
    const drafts = await sql<{ id: string; derived_from_id: string }>(
      `SELECT f.id, f.derived_from_id FROM files f JOIN file_attachments a ON a.file_id = f.id WHERE a.order_id = ? AND f.type = 'translation'`,
      [revision.id],
    );
    expect(drafts).toEqual([{ id: expect.any(String), derived_from_id: original.sourceId }]);
    expect(drafts[0].id).not.toBe(originalTranslation.id);
    expect(revision.files.map((file: { id: string }) => file.id)).toEqual([original.sourceId]);

    // The original stays completed, lists the revision, and its ETag changed (a poll sees it).
    const after = await t.rest
      .get(`/api/v1/orders/${original.id}`, alice.key)
      .set('If-None-Match', before.headers.etag)
      .expect(200);
    expect(after.body.data).toMatchObject({
      status: 'completed',
      revisions: [{ id: revision.id, number: revision.number }],
      revision_of: null,
    });
    const gql = (await t.gql(OrderRevisionsDocument, { id: original.id }, alice.key)).data!.order!;
    expect(gql.revisions).toEqual([{ id: revision.id, number: revision.number, status: 'IN_REVIEW' }]);

    // Staff see the reason and the reference file; the draft is not reviewed, so completing waits for a review.
    const desk = (await t.gql(StaffRevisionDocument, { id: revision.id }, ada.token)).data!.staffOrder!;
    expect(desk.revisionReason).toBe('The surname is misspelt on page 1.');
    expect(desk.referenceFiles).toEqual([{ id: reference, name: 'names.docx', downloadUrl: expect.any(String) }]);
    // The desk is told, with the client's reason (nobody had the original: everyone at the desk).
    const told = await toldDesk(revision.number);
    expect(told.length).toBeGreaterThan(0);
    expect(told[0].subject).toBe(`Order ${before.body.data.number}: revision ${revision.number} requested`);
    expect(told[0].text).toContain('The surname is misspelt on page 1.');
    expect(told[0].text).toContain('now in review, with 1 reference file(s) from the client.');
    expect(told.map((mail) => mail.to)).not.toContain(alice.email);
    expect((await t.gql(CompleteCertifiedOrderDocument, { orderId: revision.id }, ada.token)).errors).toBeDefined();
    const newCode = await approveAndComplete(revision.id);
    expect(newCode).not.toBe(original.code);
    // The draft was the translation as reviewed, not as delivered: the revision's copy carries one footer, its own.
    const delivered = (await t.rest.get(`/api/v1/orders/${revision.id}`, alice.key).expect(200)).body.data;
    const translation = delivered.files.find((file: { type: string }) => file.type === 'translation');
    const footer = (await docxParts(await download(t, translation.download_url), /^word\/certified-footer\.xml$/))[
      'word/certified-footer.xml'
    ];
    expect(footer.match(/Certified translation/g)).toHaveLength(1);
    expect(footer).toContain(`Verification ${newCode}`);
    expect(footer).not.toContain(original.code);

    const old = (await t.rest.get(`/api/v1/certificates/${original.code}`).expect(200)).body.data;
    expect(old).toMatchObject({ superseded: true, superseded_by: newCode });
    const current = (await t.rest.get(`/api/v1/certificates/${newCode}`).expect(200)).body.data;
    expect(current).toMatchObject({ superseded: false, superseded_by: null });
    expect((await t.gql(CertificateStandingDocument, { code: original.code })).data!.certificate).toEqual({
      code: original.code,
      superseded: true,
      supersededBy: newCode,
    });
    const page = await t.rest.raw().get(`/verify/${original.code}`).expect(200);
    expect(page.text).toContain('Superseded');
    expect(page.text).toContain(newCode);
  });
});

describe("a delivered translation's reviewed bytes", () => {
  it('are kept, claimed by their file, through the storage sweep, and drafted from', async () => {
    const original = await completedCertified();
    const [kept] = await sql<{ unstamped_storage_key: string }>(
      `SELECT f.unstamped_storage_key FROM files f JOIN file_attachments a ON a.file_id = f.id
        WHERE a.order_id = ? AND f.type = 'translation'`,
      [original.id],
    );
    expect(kept.unstamped_storage_key).toEqual(expect.any(String));
    // Every stored byte an hour and more old: the sweep removes all that no row claims, and keeps these.
    const root = (t.config.storage as { dir: string }).dir;
    const longAgo = new Date(Date.now() - 2 * 3600_000);
    for (const path of readdirSync(root, { recursive: true }).map(String))
      if (statSync(join(root, path)).isFile()) utimesSync(join(root, path), longAgo, longAgo);
    const swept = await t.services.files.sweepStorage(t.orm.em.fork(), () => liveProcessIds(t.orm.em.fork()));
    expect(swept.removed).not.toContain(kept.unstamped_storage_key);
    await revise(original.id, { reason: 'A date is wrong.' }).expect(201);
  });
});

/** A revision of `original` asked for on the GraphQL door, as it answered. */
async function revisedOnGraphql(original: string, reason: string) {
  const answer = await t.gql(RequestRevisionDocument, { orderId: original, reason }, alice.key);
  expect(answer.errors).toBeUndefined();
  return answer.data!.requestRevision;
}

describe('a standard revision', () => {
  it('is translated again and completes; it lists and polls as any order', async () => {
    const original = await completedStandard();
    const revision = await revisedOnGraphql(original, 'Please translate the letterhead too.');
    expect(revision).toMatchObject({
      status: 'PROCESSING',
      totalCents: 0,
      revisionOf: { id: original },
      payment: { provider: 'none', approvalUrl: null },
    });
    const done = await waitForStatus(t, alice, revision.id, 'completed');
    const files = done.files as { type: string; download_url?: string }[];
    expect(files.filter((file) => file.type === 'translation')).toEqual([
      expect.objectContaining({ download_url: expect.any(String) }),
    ]);
    const list = (await t.rest.get('/api/v1/orders?per_page=100', alice.key).expect(200)).body.data;
    expect(list.map((order: { id: string }) => order.id)).toContain(revision.id);
  });
});

describe('a chain of revisions', () => {
  it('revises the latest delivered version only, within 30 days of the first delivery, on both doors', async () => {
    const original = await completedStandard();
    const firstDelivery = new Date(Date.now() - 20 * 86_400_000);
    await sql(`UPDATE orders SET completed_at = ? WHERE id = ?`, [firstDelivery, original]);
    const closes = new Date(firstDelivery.getTime() + 30 * 86_400_000).toISOString();
    const closesAt = (order: { revision_window_closes_at: string }) =>
      new Date(order.revision_window_closes_at).toISOString();
    const first = (await revise(original, { reason: 'The dates are wrong.' }).expect(201)).body.data;
    expect(closesAt(first)).toBe(closes);
    const read = (await t.rest.get(`/api/v1/orders/${original}`, alice.key).expect(200)).body.data;
    expect(closesAt(read)).toBe(closes);
    expect(read.legal_hold_by_staff).toBe(false);
    expect(read.revisions).toEqual([{ id: first.id, number: first.number, status: 'processing' }]);

    // Finished, the revision replaces the original: a further revision is asked of it, not of the original.
    await waitForStatus(t, alice, first.id, 'completed');
    const replaced = await revise(original, { reason: 'Still wrong.' }).expect(422);
    expect(replaced.body.errors.revisions[0]).toBe(
      `This order was revised as ${first.number}, which replaces it; ask for a revision of ${first.number} instead.`,
    );
    const graphql = (await t.gql(OrderRevisionsDocument, { id: original }, alice.key)).data!.order!;
    expect(graphql).toMatchObject({ revisions: [{ id: first.id, status: 'COMPLETED' }], legalHoldByStaff: false });
    expect(new Date(graphql.revisionWindowClosesAt!).toISOString()).toBe(closes);

    // The revision's own window is the first delivery's: completed today, it does not restart the 30 days.
    const second = (await revise(first.id, { reason: 'And the names.' }).expect(201)).body.data;
    expect(second.revision_of.id).toBe(first.id);
    expect(closesAt(second)).toBe(closes);
    await waitForStatus(t, alice, second.id, 'completed');
    await sql(`UPDATE orders SET completed_at = now() - interval '31 days' WHERE id = ?`, [original]);
    await sql(
      `UPDATE orders SET revision_window_from = now() - interval '31 days' WHERE revision_of_id IS NOT NULL AND id IN (?, ?)`,
      [first.id, second.id],
    );
    const late = await revise(second.id, { reason: 'One more.' }).expect(422);
    expect(late.body.errors.completed_at[0]).toMatch(/within 30 days of the first delivery/);
    const gql = await t.gql(RequestRevisionDocument, { orderId: first.id, reason: 'Of the replaced one.' }, alice.key);
    expect(refusal(gql)).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(
      await sql('SELECT id FROM orders WHERE revision_of_id IN (?, ?, ?)', [original, first.id, second.id]),
    ).toHaveLength(2);
  });

  it('tells a poller of the original when its revision moves, and makes one revision of the tip when two race', async () => {
    const original = await completedStandard();
    const first = (await revise(original, { reason: 'Fix the stamp.' }).expect(201)).body.data;
    const polled = await t.rest.get(`/api/v1/orders/${original}`, alice.key).expect(200);
    expect(polled.body.data.revisions).toEqual([expect.objectContaining({ id: first.id, status: 'processing' })]);
    await waitForStatus(t, alice, first.id, 'completed');
    // The original's answer lists the revision's status: its version moved with it, so the poll is answered anew.
    const again = await t.rest
      .get(`/api/v1/orders/${original}`, alice.key)
      .set('If-None-Match', polled.headers.etag)
      .expect(200);
    expect(again.body.data.revisions).toEqual([expect.objectContaining({ id: first.id, status: 'completed' })]);
    const answers = await Promise.all([
      revise(first.id, { reason: 'From one colleague.' }),
      t.gql(RequestRevisionDocument, { orderId: first.id, reason: 'From another.' }, alice.key),
    ]);
    expect([answers[0].status === 201, answers[1].errors === undefined].filter(Boolean)).toHaveLength(1);
    const open = await sql<{ id: string }>(
      `SELECT id FROM orders WHERE revision_of_id IN (?, ?) AND status NOT IN ('completed', 'cancelled')`,
      [original, first.id],
    );
    expect(open).toHaveLength(1);
  });
});

describe("a revision's instructions", () => {
  it('are the original’s, read on both doors, and quoted to the desk with a link to the revision in the console', async () => {
    const instructions = 'Spell the surname MÜLLER, as on the passport; keep "Juzgado de Familia" untranslated.';
    const original = await completedStandard(alice, { instructions });
    const revision = await revisedOnGraphql(original, 'The surname is misspelt on page 2.');
    expect(revision.instructions).toBe(instructions);
    const rest = (await t.rest.get(`/api/v1/orders/${revision.id}`, alice.key).expect(200)).body.data;
    expect(rest).toMatchObject({ instructions, revision_reason: 'The surname is misspelt on page 2.' });
    expect((await t.gql(OrderRevisionsDocument, { id: revision.id }, alice.key)).data!.order).toMatchObject({
      instructions,
      revisionOf: { id: original },
    });

    const told = await toldDesk(revision.number);
    expect(told.length).toBeGreaterThan(0);
    for (const mail of told) {
      expect(mail.text).toContain('The surname is misspelt on page 2.');
      expect(mail.text).toContain(`Instructions from the client:\n\n${instructions}`);
      expect(mail.text).toContain(`Open it in the staff console: ${t.config.appUrl}/console/orders/${revision.number}`);
      expect(apiWordingIn(mail.text)).toEqual([]);
    }
  });
});

describe('refused revisions', () => {
  it('one open revision at a time: two requests at once make one revision and one 422', async () => {
    const original = await completedStandard();
    const answers = await Promise.all([
      revise(original, { reason: 'First try.' }),
      t.gql(RequestRevisionDocument, { orderId: original, reason: 'Second try.' }, alice.key),
    ]);
    const rest = answers[0];
    const graphql = answers[1];
    expect([rest.status === 201, graphql.errors === undefined].filter(Boolean)).toHaveLength(1);
    const refused = rest.status === 201 ? refusal(graphql)?.errors : rest.body.errors;
    expect(refused).toHaveProperty('revisions');
    expect(await sql('SELECT id FROM orders WHERE revision_of_id = ?', [original])).toHaveLength(1);
  });

  it('after 30 days, on both doors', async () => {
    const original = await completedStandard();
    await sql(`UPDATE orders SET completed_at = now() - interval '31 days' WHERE id = ?`, [original]);
    const rest = await revise(original, { reason: 'Too late?' }).expect(422);
    expect(rest.body.errors.completed_at[0]).toMatch(/within 30 days/);
    const gql = await t.gql(RequestRevisionDocument, { orderId: original, reason: 'Too late?' }, alice.key);
    expect(refusal(gql)).toMatchObject({ code: 'BAD_USER_INPUT', errors: { completedAt: expect.any(Array) } });
    // At 29 days it is still allowed.
    await sql(`UPDATE orders SET completed_at = now() - interval '29 days' WHERE id = ?`, [original]);
    await revise(original, { reason: 'Just in time.' }).expect(201);
  });

  it('on a cancelled order or one not completed', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(30)] }), 'memo.docx')).id;
    const quote = (
      await t.rest
        .post(
          '/api/v1/quotes',
          { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [source] },
          alice.key,
        )
        .expect(201)
    ).body.data;
    const order = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body.data;
    expect((await revise(order.id, { reason: 'Unpaid.' }).expect(422)).body.errors.status).toBeDefined();
    await t.rest.post(`/api/v1/orders/${order.id}/cancel`, undefined, alice.key).expect(200);
    expect((await revise(order.id, { reason: 'Cancelled.' }).expect(422)).body.errors.status[0]).toMatch(/cancelled/);
    const gql = await t.gql(RequestRevisionDocument, { orderId: order.id, reason: 'Cancelled.' }, alice.key);
    expect(refusal(gql)).toMatchObject({ code: 'BAD_USER_INPUT', errors: { status: expect.any(Array) } });
  });

  it('bad input: no reason, a reason over 2,000 characters, files that are not yours; and changes nothing', async () => {
    const original = await completedStandard();
    expect((await revise(original, {}).expect(422)).body.errors.reason).toBeDefined();
    expect((await revise(original, { reason: 'x'.repeat(2001) }).expect(422)).body.errors.reason).toBeDefined();
    const gql = await t.gql(RequestRevisionDocument, { orderId: original, reason: 'x'.repeat(2001) }, alice.key);
    expect(refusal(gql)).toMatchObject({ code: 'BAD_USER_INPUT', errors: { reason: expect.any(Array) } });
    const bobs = (await uploadFile(t, bob.key, await docx({ paragraphs: ['Not yours.'] }), 'bob.docx')).id;
    expect((await revise(original, { reason: 'See file.', file_ids: [bobs] }).expect(422)).body.errors).toHaveProperty(
      'file_ids',
    );
    expect((await revise(original, { reason: 'See file.', file_ids: ['nope'] }).expect(422)).body.errors).toBeDefined();
    expect(await sql('SELECT id FROM orders WHERE revision_of_id = ?', [original])).toHaveLength(0);
    // Exactly 2,000 characters is accepted.
    await revise(original, { reason: 'x'.repeat(2000) }).expect(201);
  });

  it("another account's order is not found, on both doors", async () => {
    const original = await completedStandard(bob);
    await revise(original, { reason: 'Not mine.' }).expect(404);
    const gql = await t.gql(RequestRevisionDocument, { orderId: original, reason: 'Not mine.' }, alice.key);
    expect(refusal(gql)?.code).toBe('NOT_FOUND');
    await revise('not-an-id', { reason: 'Nothing.' }).expect(404);
  });
});

it('a staff cancel of an open revision has nothing to refund, and a new revision may then be asked for', async () => {
  const original = await completedCertified();
  const revision = (await revise(original.id, { reason: 'Redo.' }).expect(201)).body.data;
  await revise(original.id, { reason: 'Again, too soon.' }).expect(422);
  const cancelled = await t.gql(StaffCancelOrderDocument, { id: revision.id, reason: 'Asked by phone' }, ada.token);
  expect(cancelled.errors).toBeUndefined();
  const [payment] = await sql<{ status: string; refunded_cents: number }>(
    'SELECT p.status, p.refunded_cents FROM payments p JOIN orders o ON o.payment_id = p.id WHERE o.id = ?',
    [revision.id],
  );
  expect(payment).toEqual({ status: 'captured', refunded_cents: 0 });
  const polled = (await t.rest.get(`/api/v1/orders/${revision.id}`, alice.key).expect(200)).body.data;
  expect(polled).toMatchObject({ status: 'cancelled', payment: { provider: 'none', refunded_at: null } });
  await revise(original.id, { reason: 'Again.' }).expect(201);
});
