import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AssignOrderDocument,
  AttachAsTranslatorDocument,
  CompleteAsTranslatorDocument,
  RecordNotarizationDocument,
  SentEmailsDocument,
  StaffOrderDocument,
  StaffOrderQueueDocument,
} from '../graphql/generated';
import { createStaffMember, download, notarizationDetails, pdfText } from '../helpers/certified';
import { docx, png, textlessPdf } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { apiWordingIn } from '../helpers/mail';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { pdfText as layoutText } from '../helpers/pdf-pages';
import { pollUntil } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 34 / D30: a certified scan (the usual legal document) goes to a translator, not on hold. The engine still
 * drafts the sources it can read; the translator's file for the last scan moves the order to review.
 */
let t: TestApp;
let desk: string;
let alice: TestAccount;
let translator: Awaited<ReturnType<typeof createStaffMember>>;
let colleague: Awaited<ReturnType<typeof createStaffMember>>;
beforeAll(async () => {
  t = await startTestApp();
  desk = await createStaffToken(t, StaffRole.DESK);
  alice = await createApprovedAccount(t, await createStaffToken(t, StaffRole.ADMIN));
  translator = await createStaffMember(t, {
    role: StaffRole.TRANSLATOR,
    name: 'Tomás Translator',
    credentials: 'ATA-certified translator no. 200002',
  });
  colleague = await createStaffMember(t, { role: StaffRole.TRANSLATOR, name: 'Carla Colleague' });
});
afterAll(() => t.close());

const notarization = notarizationDetails();

/** What an order holds in the database: its state, its translations, its reviews, its audit trail, the account's files. */
async function stored(orderId: string) {
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute(
      `SELECT o.status,
          (SELECT count(*)::int FROM file_attachments a JOIN files f ON f.id = a.file_id
            WHERE a.order_id = o.id AND f.type = 'translation') AS translations,
          (SELECT count(*)::int FROM translation_reviews r WHERE r.order_id = o.id) AS reviews,
          (SELECT count(*)::int FROM audit_entries e WHERE e.resource_id = o.id::text) AS audit_entries,
          (SELECT count(*)::int FROM files f WHERE f.account_id = o.account_id) AS account_files
       FROM orders o WHERE o.id = ?`,
      [orderId],
    );
  return row as { status: string; translations: number; reviews: number; audit_entries: number; account_files: number };
}

const queue = async () =>
  (await t.gql(StaffOrderQueueDocument, { queue: 'NEEDS_TRANSLATION' }, desk)).data!.staffOrders.items;

/** Waits until the order is in the translators' queue (the translation job has looked at it). */
const waitForQueue = (id: string) =>
  pollUntil(queue, (items) => items.some((item) => item.id === id), {
    timeoutMs: 30_000,
    intervalMs: 150,
    failure: () => `order ${id} never reached the translators' queue`,
  });

/** The translator's file for a source, as a file picker sends it. */
const attach = (orderId: string, token: string, file: { content: Buffer; filename: string }, sourceFileId?: string) =>
  t.gqlUpload(AttachAsTranslatorDocument, { orderId, sourceFileId }, file, { token });

async function attachTyped(orderId: string, token: string, text: string, sourceFileId?: string) {
  const content = await docx({ paragraphs: [text] });
  return attach(orderId, token, { content, filename: 'birth-certificate.en.docx' }, sourceFileId);
}

/** The README's scan (examples/): a birth certificate photographed, and its translation as the translator typed it. */
const example = (name: string) => ({ content: readFileSync(join(EXAMPLES, name)), filename: name });
const EXAMPLES = join(__dirname, '..', '..', 'examples');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('a paid certified scan', () => {
  it('stays processing in the translators’ queue, with no hold and no hold e-mail, and completes from the translator’s file', async () => {
    const scan = await uploadFile(
      t,
      alice.key,
      example('birth-certificate-scan.png').content,
      'birth-certificate-scan.png',
    );
    await waitForAnalysis(t, alice.key, scan.id);
    const id = await paidOrder(t, alice, [scan.id], 'certified', {
      unit_count: 1,
      addons: [{ code: 'notarization' }],
    });
    await waitForQueue(id);
    const polled = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    expect(polled).toMatchObject({ status: 'processing', hold_reason: null });
    const mails = (await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, desk)).data!.sentEmails.items;
    expect(mails.map((mail) => mail.kind)).not.toContain('on_hold');

    // Only the assigned translator attaches; an order assigned to no one is refused to them.
    expect((await attachTyped(id, translator.token, 'Birth certificate.')).errors![0].extensions!.code).toBe(
      'FORBIDDEN',
    );
    expect((await t.gql(AssignOrderDocument, { orderId: id, staffUserId: translator.id }, desk)).errors).toBe(
      undefined,
    );
    const attached = await attach(id, translator.token, example('birth-certificate-scan.en.pdf'));
    expect(attached.errors).toBeUndefined();
    expect(attached.data!.attachReviewedTranslation.status).toBe('IN_REVIEW');
    expect(await queue()).not.toContainEqual(expect.objectContaining({ id }));

    // It completes as any certified order: the translator's file counts as reviewed.
    const view = (await t.gql(StaffOrderDocument, { id }, desk)).data!.staffOrder!;
    expect(view.reviews).toEqual([expect.objectContaining({ kind: 'REPLACED' })]);
    expect((await t.gql(RecordNotarizationDocument, { orderId: id, ...notarization }, desk)).errors).toBeUndefined();
    // The translator certifies what they translated.
    const done = await t.gql(CompleteAsTranslatorDocument, { orderId: id }, translator.token);
    expect(done.errors).toBeUndefined();
    const order = await waitForStatus(t, alice, id, 'completed');
    const fileOf = (type: string) => order.files.find((file: { type: string }) => file.type === type);
    const certificateBytes = await download(t, fileOf('certificate').download_url);
    if (process.env.CERTIFICATE_OUT) writeFileSync(process.env.CERTIFICATE_OUT, certificateBytes);
    const delivered = await download(t, fileOf('translation').download_url);
    const code = (order.certificate as { verification_code: string }).verification_code;
    const [firstHalf, secondHalf] = sha256(delivered).match(/.{32}/g)!;

    // What the court reads: who, what, which files (the scan by its name, the translation as delivered, its pages and
    // its SHA-256 in two halves of 32 characters), the notary, and where to verify it.
    const { pages, text } = await pdfText(certificateBytes);
    expect(pages).toHaveLength(1);
    const flat = text.replace(/\s+/g, ' ');
    for (const expected of [
      t.config.company.name,
      'Smith & Partners LLP',
      order.number,
      'Spanish into English',
      'Pages: 1 billing page (250 words each) for 1 document page, scanned (one billing page)',
      'I, Tomás Translator, ATA-certified translator no. 200002, hereby certify',
      // The footer it promises is the one the translation's pages carry.
      `bears the footer "Order ${order.number} · Certified translation · Page n of N · Verification ${code}"`,
      '1 birth-certificate-scan.png birth-certificate-scan.en.pdf 1',
      firstHalf,
      secondHalf,
      notarization.notaryName,
      notarization.commissionNumber,
      code,
      `${t.config.appUrl}/verify/${code}`,
    ])
      expect(flat).toContain(expected);
    expect((await pdfText(delivered)).text).toContain(
      `Order ${order.number} · Certified translation · Page 1 of 1 · Verification ${code}`,
    );
    // Drawn by poppler, the table's row reads as one line: the file names, the pages, the hash's first half.
    expect(layoutText(certificateBytes)).toMatch(
      new RegExp(
        `\\n\\s*1\\s+birth-certificate-scan\\.png\\s+birth-certificate-scan\\.en\\.pdf\\s+1\\s+${firstHalf}\\n`,
      ),
    );

    // The client is told it is complete, with a link to the order's page in the portal, where the files are.
    const completed = (
      await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, desk)
    ).data!.sentEmails.items.find((mail) => mail.kind === 'order_completed' && mail.subject.includes(order.number));
    expect(completed!.text).toContain(`${t.config.appUrl}/portal/orders/${id}`);
    expect(apiWordingIn(completed!.text!)).toEqual([]);
  });

  it('refuses a translator the file for an order assigned to another translator, storing nothing', async () => {
    const scan = await uploadFile(t, alice.key, png(), 'marriage-certificate.png');
    await waitForAnalysis(t, alice.key, scan.id);
    const id = await paidOrder(t, alice, [scan.id], 'certified', { unit_count: 1 });
    await waitForQueue(id);
    expect((await t.gql(AssignOrderDocument, { orderId: id, staffUserId: colleague.id }, desk)).errors).toBeUndefined();
    const before = await stored(id);

    const refused = await attachTyped(id, translator.token, 'Marriage certificate.');
    expect(refused.errors![0]).toMatchObject({
      message: 'The order is not assigned to you.',
      extensions: { code: 'FORBIDDEN' },
    });
    expect(refused.data?.attachReviewedTranslation ?? null).toBeNull();
    // No file, no review, no audit entry, the same state, still waiting for its translator.
    expect(await stored(id)).toEqual(before);
    expect(before).toMatchObject({ status: 'processing', translations: 0, reviews: 0 });
    expect(await queue()).toContainEqual(expect.objectContaining({ id }));
    // The assignee's own file is taken.
    expect((await attachTyped(id, colleague.token, 'Marriage certificate.')).errors).toBeUndefined();
    expect(await stored(id)).toMatchObject({ status: 'in_review', translations: 1, reviews: 1 });
  });

  it('has the engine draft the sources it can read while the scans wait, and moves on with the last scan', async () => {
    const letter = await uploadFile(
      t,
      alice.key,
      await docx({ paragraphs: ['Carta de recomendación.'] }),
      'carta.docx',
    );
    const record = await uploadFile(t, alice.key, await textlessPdf(3), 'record.pdf');
    const photo = await uploadFile(t, alice.key, png(), 'passport.png');
    for (const file of [letter, record, photo]) await waitForAnalysis(t, alice.key, file.id);
    const id = await paidOrder(t, alice, [letter.id, record.id, photo.id], 'certified', { unit_count: 4 });
    await waitForQueue(id);
    await t.gql(AssignOrderDocument, { orderId: id, staffUserId: translator.id }, desk);
    const drafted = await pollUntil(
      async () => (await t.gql(StaffOrderDocument, { id }, desk)).data!.staffOrder!,
      (view) => view.files.some((file) => file.type === 'TRANSLATION'),
      { timeoutMs: 30_000, intervalMs: 150, failure: () => 'the engine never drafted the letter' },
    );
    expect(drafted.files.filter((file) => file.type === 'TRANSLATION').map((file) => file.name)).toEqual([
      'carta.en.docx',
    ]);
    const first = await attachTyped(id, translator.token, 'Court record.', record.id);
    expect(first.data!.attachReviewedTranslation.status).toBe('PROCESSING');
    expect(await queue()).toContainEqual(expect.objectContaining({ id }));
    const last = await attachTyped(id, translator.token, 'Passport.', photo.id);
    expect(last.data!.attachReviewedTranslation.status).toBe('IN_REVIEW');
  });

  it('still refuses a scan on a standard quote (D29)', async () => {
    const scan = await uploadFile(t, alice.key, png(), 'scan.png');
    await waitForAnalysis(t, alice.key, scan.id);
    const refused = await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [scan.id], unit_count: 1 },
        alice.key,
      )
      .expect(422);
    expect(Object.keys(refused.body.errors)).toEqual(['file_ids']);
  });
});
