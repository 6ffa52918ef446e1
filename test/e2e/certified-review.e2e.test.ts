import { createHash } from 'node:crypto';
import {
  ApproveTranslationDocument,
  AttachReviewedTranslationDocument,
  CompleteCertifiedOrderDocument,
  ReleaseOrderDocument,
  SentEmailsDocument,
  StaffOrderDocument,
} from '../graphql/generated';
import { download, pdfText } from '../helpers/certified';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { docx, pdf } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { imageQuotedAsText, uploadFile } from '../helpers/files';
import { verifyPdfSignature } from '../helpers/pdf-signature';
import { pollUntil } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';

let t: TestApp;
let staff: string;
let admin: string;
let alice: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t, StaffRole.DESK);
  admin = await createStaffToken(t, StaffRole.ADMIN);
  alice = await createApprovedAccount(t, admin);
});
afterAll(() => t.close());

/** A certified order for one DOCX, in review, its machine translation approved by staff. */
async function reviewedOrder(filename: string, paragraph: string) {
  const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [paragraph] }), filename)).id;
  const id = await paidOrder(t, alice, [source], 'certified');
  await waitForStatus(t, alice, id, 'in_review');
  const view = (await t.gql(StaffOrderDocument, { id }, staff)).data!.staffOrder!;
  const translation = view.files.find((file) => file.type === 'TRANSLATION')!;
  expect((await t.gql(ApproveTranslationDocument, { fileId: translation.id }, staff)).errors).toBeUndefined();
  return id;
}

/** Completed by staff with a generated certificate: the order as the client sees it, and the certificate. */
async function generatedCertificate(filename: string, paragraph: string) {
  const id = await reviewedOrder(filename, paragraph);
  const done = await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, staff);
  expect(done.data!.completeCertifiedOrder.status).toBe('COMPLETED');
  const order = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
  const bytes = await download(t, order.files.find((f: { type: string }) => f.type === 'certificate').download_url);
  return { order, bytes, text: (await pdfText(bytes)).text };
}

describe('certified review (D10, D19)', () => {
  it('takes a reviewed file in place of the machine output and an uploaded certificate', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Poder notarial.'] }), 'poder.docx')).id;
    const id = await paidOrder(t, alice, [source], 'certified');
    await waitForStatus(t, alice, id, 'in_review');
    // A PDF the reviewer named as they liked, for a DOCX source: the client gets `<base>.<target>.<ext>` (D30).
    const reviewed = await pdf(['Power of attorney (reviewed).']);
    const attached = await t.gqlUpload(
      AttachReviewedTranslationDocument,
      { orderId: id },
      { content: reviewed, filename: 'reviewed.pdf' },
      { token: staff },
    );
    expect(attached.errors).toBeUndefined();
    const translations = attached.data!.attachReviewedTranslation.files.filter((f) => f.type === 'TRANSLATION');
    expect(translations.map((f) => f.name)).toEqual(['poder.en.pdf']);
    expect(Buffer.compare(await download(t, translations[0].downloadUrl!), reviewed)).toBe(0);

    const notPdf = await t.gqlUpload(
      CompleteCertifiedOrderDocument,
      { orderId: id },
      { content: await docx({ paragraphs: ['Not a certificate.'] }), filename: 'c.docx' },
      { token: staff, variable: 'certificate' },
    );
    expect(notPdf.errors![0].extensions!.errors).toEqual({ certificate: ['The certificate must be a PDF document.'] });

    const { PDFDocument } = await import('pdf-lib');
    const signed = Buffer.from(await (await PDFDocument.create()).save());
    const done = await t.gqlUpload(
      CompleteCertifiedOrderDocument,
      { orderId: id },
      { content: signed, filename: 'signed.pdf' },
      { token: staff, variable: 'certificate' },
    );
    expect(done.errors).toBeUndefined();
    const order = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    expect(order).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(/Z$/) });
    const certificate = order.files.find((f: { type: string }) => f.type === 'certificate');
    expect(certificate).toMatchObject({
      name: `${order.number}-certificate.pdf`,
      download_url: expect.stringContaining('/download?expires='),
    });
    expect(Buffer.compare(await download(t, certificate.download_url), signed)).toBe(0);
    // An uploaded certificate is verifiable too: the delivered translation is footed with its code and hashed.
    const delivered = await download(
      t,
      order.files.find((f: { type: string }) => f.type === 'translation').download_url,
    );
    const { data } = await t.gql(StaffOrderDocument, { id }, staff);
    expect(data!.staffOrder!.certificate!.documents).toEqual([
      {
        name: 'poder.en.pdf',
        sourceName: 'poder.docx',
        sha256: createHash('sha256').update(delivered).digest('hex'),
        pageCount: 1,
      },
    ]);
  });

  it('names documents in any script on the generated certificate, which still verifies', async () => {
    const { bytes, text } = await generatedCertificate('出生证明.docx', '出生证明。');
    for (const expected of [
      '出生证明.docx',
      '出生证明.en.docx',
      'Spanish into English',
      'CERTIFICATE OF TRANSLATION ACCURACY',
    ])
      expect(text).toContain(expected);
    expect(verifyPdfSignature(bytes).coversWholeFile).toBe(true);
  });

  it("counts the generated certificate's pages as its PDF has them, not as billing pages (D30)", async () => {
    const { order, bytes } = await generatedCertificate('acta.docx', 'Acta de nacimiento.');
    const { PDFDocument } = await import('pdf-lib');
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    const id = order.files.find((f: { type: string }) => f.type === 'certificate').id;
    const file = await pollUntil(
      async () => (await t.rest.get(`/api/v1/files/${id}`, alice.key).expect(200)).body.data,
      (answer) => answer.analysis_status !== 'pending',
      { timeoutMs: 30_000, intervalMs: 100, failure: () => `the certificate ${id} was never analysed` },
    );
    expect(file).toMatchObject({ analysis_status: 'counted', page_count: pages, document_pages: pages });
  });

  it('signs the generated certificate (PAdES) so that it verifies, and any change breaks it', async () => {
    const { bytes } = await generatedCertificate('sentencia.docx', 'Sentencia.');
    expect(verifyPdfSignature(bytes)).toEqual({
      subFilter: 'ETSI.CAdES.detached',
      signerCommonName: 'Sandbox Certified Translator',
      coversWholeFile: true,
    });
    const tampered = Buffer.from(bytes);
    const at = tampered.indexOf('Sentencia') >= 0 ? tampered.indexOf('Sentencia') : 200;
    tampered[at] = tampered[at] ^ 1;
    expect(() => verifyPdfSignature(tampered)).toThrow(/digest mismatch|does not verify/);
  });

  it('finishes an order held for an unreadable document: attach, release, complete', async () => {
    const scan = await imageQuotedAsText(t, alice.key, await docx({ paragraphs: ['Scan.'] }), 'scan.docx');
    const id = await paidOrder(t, alice, [scan], 'standard');
    const { number } = await waitForStatus(t, alice, id, 'on_hold');
    // Released as it is, the engine would hold it again at once (and tell the client twice): refused, with the reason.
    const early = await t.gql(ReleaseOrderDocument, { id }, staff);
    expect(early.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: {
        files: [
          'scan.docx has no text the translation engine can read: attach a translation for it (attachReviewedTranslation), then release the order.',
        ],
      },
    });
    expect((await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data.status).toBe('on_hold');
    const attached = await t.gqlUpload(
      AttachReviewedTranslationDocument,
      { orderId: id },
      { content: await docx({ paragraphs: ['Typed translation'] }), filename: 'scan.en.docx' },
      { token: staff },
    );
    expect(attached.errors).toBeUndefined();
    await t.gql(ReleaseOrderDocument, { id }, staff);
    const order = await waitForStatus(t, alice, id, 'completed');
    expect(
      order.files.filter((f: { type: string }) => f.type === 'translation').map((f: { name: string }) => f.name),
    ).toEqual(['scan.en.docx']);
    const holds = (
      await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, admin)
    ).data!.sentEmails.items.filter((message) => message.kind === 'on_hold' && message.subject.includes(number));
    expect(holds).toHaveLength(1);
  });

  it('refuses the wrong states and non-staff callers', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Texto.'] }), 't.docx')).id;
    const standard = await paidOrder(t, alice, [source], 'standard');
    const completed = await waitForStatus(t, alice, standard, 'completed');
    const complete = await t.gql(CompleteCertifiedOrderDocument, { orderId: standard }, staff);
    expect(complete.errors![0].extensions!.errors).toEqual({
      order: ['Only certified orders are completed by staff.'],
    });
    const attach = await t.gqlUpload(
      AttachReviewedTranslationDocument,
      { orderId: standard },
      { content: await docx({ paragraphs: ['x'] }), filename: 'x.docx' },
      { token: staff },
    );
    expect(attach.errors![0].extensions!.errors).toEqual({
      status: ['Cannot attach a translation while the status is completed.'],
    });
    const approve = await t.gql(
      ApproveTranslationDocument,
      { fileId: completed.files.find((f: { type: string }) => f.type === 'translation').id },
      staff,
    );
    expect(approve.errors![0].extensions!.errors).toEqual({
      status: ['Cannot approve a translation while the status is completed.'],
    });
    const byAccount = await t.gql(CompleteCertifiedOrderDocument, { orderId: standard }, alice.key);
    expect(byAccount.errors![0].extensions!.code).toBe('FORBIDDEN');
    expect((await t.gql(ApproveTranslationDocument, { fileId: source }, staff)).errors![0].extensions!.code).toBe(
      'NOT_FOUND',
    );
  });
});
