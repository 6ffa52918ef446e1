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
import { paidOrder, waitForStatus } from '../helpers/orders';
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
beforeAll(async () => {
  t = await startTestApp();
  desk = await createStaffToken(t, StaffRole.DESK);
  alice = await createApprovedAccount(t, await createStaffToken(t, StaffRole.ADMIN));
  translator = await createStaffMember(t, {
    role: StaffRole.TRANSLATOR,
    name: 'Tomás Translator',
    credentials: 'ATA-certified translator no. 200002',
  });
});
afterAll(() => t.close());

const notarization = notarizationDetails();

const queue = async () =>
  (await t.gql(StaffOrderQueueDocument, { queue: 'NEEDS_TRANSLATION' }, desk)).data!.staffOrders.items;

/** Waits until the order is in the translators' queue (the translation job has looked at it). */
const waitForQueue = (id: string) =>
  pollUntil(queue, (items) => items.some((item) => item.id === id), {
    timeoutMs: 30_000,
    intervalMs: 150,
    failure: () => `order ${id} never reached the translators' queue`,
  });

async function attachTyped(orderId: string, token: string, text: string, sourceFileId?: string) {
  return t.gqlUpload(
    AttachAsTranslatorDocument,
    { orderId, sourceFileId },
    { content: await docx({ paragraphs: [text] }), filename: 'birth-certificate.en.docx' },
    { token },
  );
}

describe('a paid certified scan', () => {
  it('stays processing in the translators’ queue, with no hold and no hold e-mail, and completes from the translator’s file', async () => {
    const scan = await uploadFile(t, alice.key, png(), 'birth-certificate.png');
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

    // Only the assigned translator attaches; someone else's order is refused to them.
    expect((await attachTyped(id, translator.token, 'Birth certificate.')).errors![0].extensions!.code).toBe(
      'FORBIDDEN',
    );
    expect((await t.gql(AssignOrderDocument, { orderId: id, staffUserId: translator.id }, desk)).errors).toBe(
      undefined,
    );
    const attached = await attachTyped(id, translator.token, 'Birth certificate of Ana María López.');
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
    const certificate = order.files.find((file: { type: string }) => file.type === 'certificate');
    const text = (await pdfText(await download(t, certificate.download_url))).text;
    expect(text).toContain('birth-certificate.png');
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
