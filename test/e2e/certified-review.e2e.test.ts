import { AttachReviewedTranslationDocument, CompleteCertifiedOrderDocument, ReleaseOrderDocument } from '../graphql/generated';
import { docx, png } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { verifyPdfSignature } from '../helpers/pdf-signature';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { StaffRole } from '../../src/domain/staff/staff-user.entity';

let t: TestApp;
let staff: string;
let alice: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t, StaffRole.STAFF);
  alice = await createApprovedAccount(t, staff);
});
afterAll(() => t.close());

async function paidOrder(fileIds: string[], serviceType: string, extra: object = {}) {
  const quote = (await t.rest.post('/api/v1/quotes', { source_language: 'es', target_language: 'en', service_type: serviceType, file_ids: fileIds, ...extra }, alice.key).expect(201)).body.data;
  const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body;
  await t.rest.raw().post(`${converted.provider_approval_url.replace(t.config.appUrl, '')}/pay`).type('form').send({}).expect(200);
  return converted.data.id as string;
}
async function waitFor(id: string, status: string) {
  for (let i = 0; i < 200; i++) {
    const order = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    if (order.status === status) return order;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`order ${id} never reached ${status}`);
}
const download = async (url: string) =>
  (await t.rest.get(url.replace(t.config.appUrl, '')).buffer(true).parse((r, done) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
  }).expect(200)).body as Buffer;

describe('certified review (D10)', () => {
  it('takes a reviewed file in place of the machine output and an uploaded certificate', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Poder notarial.'] }), 'poder.docx')).id;
    const id = await paidOrder([source], 'certified');
    await waitFor(id, 'in_review');
    const reviewed = await docx({ paragraphs: ['Power of attorney (reviewed).'] });
    const attached = await t.gqlUpload(AttachReviewedTranslationDocument, { orderId: id }, { content: reviewed, filename: 'poder.en.reviewed.docx' }, { token: staff });
    expect(attached.errors).toBeUndefined();
    const translations = attached.data!.attachReviewedTranslation.files.filter((f) => f.type === 'TRANSLATION');
    expect(translations.map((f) => f.name)).toEqual(['poder.en.reviewed.docx']);
    expect(Buffer.compare(await download(translations[0].downloadUrl!), reviewed)).toBe(0);

    const notPdf = await t.gqlUpload(CompleteCertifiedOrderDocument, { orderId: id }, { content: reviewed, filename: 'c.docx' }, { token: staff, variable: 'certificate' });
    expect(notPdf.errors![0].extensions!.errors).toEqual({ certificate: ['The certificate must be a PDF document.'] });

    const { PDFDocument } = await import('pdf-lib');
    const signed = Buffer.from(await (await PDFDocument.create()).save());
    const done = await t.gqlUpload(CompleteCertifiedOrderDocument, { orderId: id }, { content: signed, filename: 'signed.pdf' }, { token: staff, variable: 'certificate' });
    expect(done.errors).toBeUndefined();
    const order = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    expect(order).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(/Z$/) });
    const certificate = order.files.find((f: { type: string }) => f.type === 'certificate');
    expect(certificate).toMatchObject({ name: `${order.number}-certificate.pdf`, download_url: expect.stringContaining('/download?expires=') });
    expect(Buffer.compare(await download(certificate.download_url), signed)).toBe(0);
  });

  /** A certified order for one DOCX, completed by staff with a generated certificate: the order and the certificate. */
  async function generatedCertificate(filename: string, paragraph: string, extra: object = {}) {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [paragraph] }), filename)).id;
    const id = await paidOrder([source], 'certified', extra);
    await waitFor(id, 'in_review');
    const done = await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, staff);
    expect(done.data!.completeCertifiedOrder.status).toBe('COMPLETED');
    const order = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    const bytes = await download(order.files.find((f: { type: string }) => f.type === 'certificate').download_url);
    const { extractText, getDocumentProxy } = await import('unpdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    return { order, bytes, text };
  }

  it('generates a certificate naming the order, languages, documents, statement, signer and date', async () => {
    const { order, text } = await generatedCertificate('titulo.docx', 'Título universitario.', { addons: [{ code: 'notarization' }] });
    for (const expected of ['Certificate of Accuracy', order.number, 'Spanish into English', 'titulo.docx', 'titulo.en.docx', 'complete and accurate', 'Sam Staff', new Date().toISOString().slice(0, 10), 'Notarization was ordered']) {
      expect(text).toContain(expected);
    }
  });

  it('names documents in any script on the generated certificate, which still verifies', async () => {
    const { bytes, text } = await generatedCertificate('出生证明.docx', '出生证明。');
    expect(text).toContain('- 出生证明.docx -> 出生证明.en.docx');
    expect(verifyPdfSignature(bytes).coversWholeFile).toBe(true);
  });

  it('signs the generated certificate (PAdES) so that it verifies, and any change breaks it', async () => {
    const { bytes } = await generatedCertificate('sentencia.docx', 'Sentencia.');
    expect(verifyPdfSignature(bytes)).toEqual({ subFilter: 'ETSI.CAdES.detached', signerCommonName: 'Sandbox Certified Translator', coversWholeFile: true });
    const tampered = Buffer.from(bytes);
    const at = tampered.indexOf('Sentencia') >= 0 ? tampered.indexOf('Sentencia') : 200;
    tampered[at] = tampered[at] ^ 1;
    expect(() => verifyPdfSignature(tampered)).toThrow(/digest mismatch|does not verify/);
  });

  it('finishes an order held for an unreadable document: attach, release, complete', async () => {
    const scan = (await uploadFile(t, alice.key, png(), 'scan.png')).id;
    const id = await paidOrder([scan], 'standard', { unit_count: 300 });
    await waitFor(id, 'on_hold');
    const attached = await t.gqlUpload(AttachReviewedTranslationDocument, { orderId: id }, { content: await docx({ paragraphs: ['Typed translation'] }), filename: 'scan.en.docx' }, { token: staff });
    expect(attached.errors).toBeUndefined();
    await t.gql(ReleaseOrderDocument, { id }, staff);
    const order = await waitFor(id, 'completed');
    expect(order.files.filter((f: { type: string }) => f.type === 'translation').map((f: { name: string }) => f.name)).toEqual(['scan.en.docx']);
  });

  it('refuses the wrong states and non-staff callers', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Texto.'] }), 't.docx')).id;
    const standard = await paidOrder([source], 'standard');
    await waitFor(standard, 'completed');
    const complete = await t.gql(CompleteCertifiedOrderDocument, { orderId: standard }, staff);
    expect(complete.errors![0].extensions!.errors).toEqual({ order: ['Only certified orders are completed by staff.'] });
    const attach = await t.gqlUpload(AttachReviewedTranslationDocument, { orderId: standard }, { content: await docx({ paragraphs: ['x'] }), filename: 'x.docx' }, { token: staff });
    expect(attach.errors![0].extensions!.errors).toEqual({ status: ['Cannot attach a translation while the status is completed.'] });
    const byAccount = await t.gql(CompleteCertifiedOrderDocument, { orderId: standard }, alice.key);
    expect(byAccount.errors![0].extensions!.code).toBe('FORBIDDEN');
  });
});
