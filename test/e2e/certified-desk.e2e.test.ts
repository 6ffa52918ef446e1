import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Order } from '../../src/domain/orders/order.entity';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AddOrderNoteDocument,
  ApproveTranslationDocument,
  AssignOrderDocument,
  AttachReviewedTranslationDocument,
  AuditLogDocument,
  CertificateDocument,
  CompleteCertifiedOrderDocument,
  FileDocument,
  OrderDocument,
  OrderNotesDocument,
  RecordNotarizationDocument,
  StaffOrderDocument,
  StaffOrderSearchDocument,
  UpdateStaffProfileDocument,
} from '../graphql/generated';
import { createStaffMember, download, notarizationDetails, pdfText } from '../helpers/certified';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { docx, docxParts, pdf, png } from '../helpers/documents';
import { createApprovedAccount, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { verifyPdfSignature } from '../helpers/pdf-signature';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let reviewer: Awaited<ReturnType<typeof createStaffMember>>;
let colleague: Awaited<ReturnType<typeof createStaffMember>>;
let alice: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  reviewer = await createStaffMember(t, { name: 'Ada Lovelace', credentials: 'ATA-certified translator no. 123456' });
  colleague = await createStaffMember(t, { name: 'Charles Babbage', role: StaffRole.ADMIN });
  alice = await createApprovedAccount(t, colleague.token);
});
afterAll(() => t.close());

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const staffView = async (id: string) => {
  const { data, errors } = await t.gql(StaffOrderDocument, { id }, reviewer.token);
  expect(errors).toBeUndefined();
  return data!.staffOrder!;
};
const notarization = notarizationDetails();

/** A certified order of a three-page PDF and a DOCX, in review. */
async function orderInReview(extra: object = {}) {
  const letter = (
    await uploadFile(
      t,
      alice.key,
      await pdf(['Carta página uno.', 'Carta página dos.', 'Carta página tres.']),
      'carta.pdf',
    )
  ).id;
  const deed = (
    await uploadFile(
      t,
      alice.key,
      await docx({ paragraphs: ['Escritura pública.'], footer: 'Notaría 12' }),
      'escritura.docx',
    )
  ).id;
  const id = await paidOrder(t, alice, [letter, deed], 'certified', { reference: 'Matter 114', ...extra });
  await waitForStatus(t, alice, id, 'in_review');
  return { id, letter, deed };
}

describe('D18: certified work stays with staff until it is finished', () => {
  it('hides the translations of an order in review from the client on both doors; staff download the source and the draft', async () => {
    const { id, letter } = await orderInReview();
    const view = await staffView(id);
    const translations = view.files.filter((file) => file.type === 'TRANSLATION');
    expect(translations).toHaveLength(2);

    const rest = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    expect(rest.files.map((file: { type: string }) => file.type)).toEqual(['source', 'source']);
    expect(
      (await t.rest.get('/api/v1/orders?per_page=100', alice.key).expect(200)).body.data.find(
        (o: { id: string }) => o.id === id,
      ).files,
    ).toHaveLength(2);
    for (const translation of translations) {
      await t.rest.get(`/api/v1/files/${translation.id}`, alice.key).expect(404, { message: 'Not found.' });
      const file = await t.gql(FileDocument, { id: translation.id }, alice.key);
      expect(file.errors![0].extensions!.code).toBe('NOT_FOUND');
    }
    const partner = await t.gql(OrderDocument, { id }, alice.key);
    expect(partner.data!.order!.files.map((file) => [file.type, file.downloadUrl])).toEqual([
      ['SOURCE', null],
      ['SOURCE', null],
    ]);
    await t.rest.get(`/api/v1/files/${letter}`, alice.key).expect(200);

    // Staff see every file with a link, sources included.
    expect(view.files.every((file) => file.downloadUrl)).toBe(true);
    const source = view.files.find((file) => file.id === letter)!;
    expect((await download(t, source.downloadUrl!)).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await download(t, translations[0].downloadUrl!)).length).toBeGreaterThan(0);
  });
});

describe('D19-D21: review, notarization, certificate', () => {
  it('refuses completion, naming each file, until every translation is reviewed and the ordered notarization recorded', async () => {
    const { id } = await orderInReview({ addons: [{ code: 'notarization' }] });
    const files = (await staffView(id)).files;
    const pdfTranslation = files.find((file) => file.name === 'carta.en.pdf')!;
    const docxTranslation = files.find((file) => file.name === 'escritura.en.docx')!;

    const refused = await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, reviewer.token);
    expect(refused.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: {
        files: [
          `${pdfTranslation.name} has not been reviewed: approve it or attach a reviewed translation.`,
          `${docxTranslation.name} has not been reviewed: approve it or attach a reviewed translation.`,
        ],
        notarization: ['Notarization was ordered: record it before completing the order.'],
      },
    });

    expect(
      (await t.gql(ApproveTranslationDocument, { fileId: pdfTranslation.id }, reviewer.token)).errors,
    ).toBeUndefined();
    const replaced = await t.gqlUpload(
      AttachReviewedTranslationDocument,
      { orderId: id, sourceFileId: files.find((f) => f.name === 'escritura.docx')!.id },
      { content: await docx({ paragraphs: ['Public deed (reviewed).'] }), filename: 'reviewed.docx' },
      { token: colleague.token },
    );
    expect(replaced.errors).toBeUndefined();
    // Named for the client after its source and the target language, not the reviewer's file (D30).
    expect(
      replaced.data!.attachReviewedTranslation.files.filter((f) => f.type === 'TRANSLATION').map((f) => f.name),
    ).toContain('escritura.en.docx');
    const stillNotarization = await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, reviewer.token);
    expect(stillNotarization.errors![0].extensions!.errors).toEqual({
      notarization: ['Notarization was ordered: record it before completing the order.'],
    });

    const badDate = await t.gql(
      RecordNotarizationDocument,
      { orderId: id, ...notarization, commissionExpiresOn: '2030-02-30' },
      reviewer.token,
    );
    expect(badDate.errors![0].extensions!.errors).toEqual({
      commissionExpiresOn: ['The commission expires on field must be a date (YYYY-MM-DD).'],
    });
    // A scan is a PDF or a photo of the paper: a DOCX is refused beside the field, and nothing is recorded.
    const docxScan = await t.gqlUpload(
      RecordNotarizationDocument,
      { orderId: id, ...notarization },
      { content: await docx({ paragraphs: ['Notarized?'] }), filename: 'notarized.docx' },
      { token: reviewer.token, variable: 'scan' },
    );
    expect(docxScan.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { scan: ['The scan must be a PDF document or a JPEG or PNG image.'] },
    });
    expect((await staffView(id)).notarization).toBeNull();
    const recorded = await t.gqlUpload(
      RecordNotarizationDocument,
      { orderId: id, ...notarization },
      { content: await pdf(['Notarized certificate (scan).']), filename: 'notarized.pdf' },
      { token: reviewer.token, variable: 'scan' },
    );
    expect(recorded.errors).toBeUndefined();
    const view = recorded.data!.recordNotarization;
    expect(view.notarization).toMatchObject({
      notaryName: 'Nora Notary',
      commissionNumber: '01NO6123456',
      jurisdiction: 'State of New York, County of Kings',
      commissionExpiresOn: '2030-06-30',
      recordedBy: { name: 'Ada Lovelace' },
    });
    expect(view.files.find((file) => file.id === view.notarization!.scanFileId)).toMatchObject({
      type: 'CERTIFICATE',
      name: `${(await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data.number}-notarization.pdf`,
    });
    expect(view.reviews!.map((review) => [review.kind, review.reviewer.name])).toEqual([
      ['APPROVED', 'Ada Lovelace'],
      ['REPLACED', 'Charles Babbage'],
    ]);
    expect(view.reviews!.every((review) => Date.parse(review.reviewedAt) <= Date.now())).toBe(true);
    // The scan is not the client's either until the order is completed (D18).
    await t.rest.get(`/api/v1/files/${view.notarization!.scanFileId}`, alice.key).expect(404);
    // A new scan replaces the first: the order keeps one scan of its notarization, not both.
    const rescanned = await t.gqlUpload(
      RecordNotarizationDocument,
      { orderId: id, ...notarization },
      { content: png(), filename: 'notarized.png' },
      { token: reviewer.token, variable: 'scan' },
    );
    expect(rescanned.errors).toBeUndefined();
    const rescan = rescanned.data!.recordNotarization;
    expect(rescan.notarization!.scanFileId).not.toBe(view.notarization!.scanFileId);
    expect(rescan.files.filter((file) => file.name.includes('-notarization.')).map((file) => file.id)).toEqual([
      rescan.notarization!.scanFileId,
    ]);

    const done = await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, reviewer.token);
    expect(done.errors).toBeUndefined();
    const certificate = (await staffView(id)).certificate!;
    expect(certificate).toMatchObject({
      notarized: true,
      translator: { name: 'Ada Lovelace', credentials: 'ATA-certified translator no. 123456' },
    });
    const { text } = await pdfText(
      await download(
        t,
        (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data.files.find((f: { name: string }) =>
          f.name.endsWith('-certificate.pdf'),
        ).download_url,
      ),
    );
    expect(text.replace(/\s+/g, ' ')).toContain('notarized on');
    expect(text.replace(/\s+/g, ' ')).toContain(
      'before Nora Notary, Notary Public, State of New York, County of Kings, commission no. 01NO6123456',
    );

    const audit = (
      await t.gql(AuditLogDocument, { resourceId: id, perPage: 100 }, reviewer.token)
    ).data!.auditLog.items.map((entry) => entry.action);
    expect(audit).toEqual(
      expect.arrayContaining([
        'order.approve_translation',
        'order.attach_reviewed_translation',
        'order.record_notarization',
        'order.complete',
      ]),
    );
  });

  it('issues a certificate naming company, client, translator and each document with pages and hash; every translated page is footed', async () => {
    const { id } = await orderInReview();
    for (const file of (await staffView(id)).files.filter((f) => f.type === 'TRANSLATION'))
      await t.gql(ApproveTranslationDocument, { fileId: file.id }, reviewer.token);
    expect((await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, reviewer.token)).errors).toBeUndefined();

    const order = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    expect(order.files.map((file: { type: string }) => file.type)).toEqual([
      'source',
      'source',
      'translation',
      'translation',
      'certificate',
    ]);
    const certificateBytes = await download(
      t,
      order.files.find((f: { type: string }) => f.type === 'certificate').download_url,
    );
    expect(verifyPdfSignature(certificateBytes).coversWholeFile).toBe(true);
    const text = (await pdfText(certificateBytes)).text.replace(/\s+/g, ' ');
    const { code } = (await staffView(id)).certificate!;
    if (process.env.CERTIFICATE_OUT) writeFileSync(process.env.CERTIFICATE_OUT, certificateBytes);

    const pdfTranslation = order.files.find((f: { name: string }) => f.name === 'carta.en.pdf');
    const docxTranslation = order.files.find((f: { name: string }) => f.name === 'escritura.en.docx');
    const deliveredPdf = await download(t, pdfTranslation.download_url);
    const deliveredDocx = await download(t, docxTranslation.download_url);
    for (const expected of [
      t.config.company.name,
      t.config.company.address,
      'Smith & Partners LLP',
      order.number,
      'Spanish into English',
      'I, Ada Lovelace, ATA-certified translator no. 123456, hereby certify',
      '1 carta.pdf carta.en.pdf 3',
      '2 escritura.docx escritura.en.docx 1',
      code,
      `${t.config.appUrl}/verify/${code}`,
    ]) {
      expect(text).toContain(expected);
    }
    // The hash is printed in two halves of 32 characters: both halves of each delivered file's SHA-256.
    for (const bytes of [deliveredPdf, deliveredDocx])
      for (const half of sha256(bytes).match(/.{32}/g)!) expect(text).toContain(half);

    const { pages } = await pdfText(deliveredPdf);
    expect(pages).toHaveLength(3);
    pages.forEach((page, i) =>
      expect(page).toContain(
        `Order ${order.number} · Certified translation · Page ${i + 1} of 3 · Verification ${code}`,
      ),
    );
    expect(pages[1]).toContain('Carta página dos.');

    const footers = await docxParts(deliveredDocx, /^word\/(footer\d*|certified-footer)\.xml$|^word\/document\.xml$/);
    expect(footers['word/certified-footer.xml']).toContain(`Order ${order.number} · Certified translation · Page `);
    expect(footers['word/certified-footer.xml']).toContain(` PAGE </w:instrText>`);
    expect(footers['word/certified-footer.xml']).toContain(` NUMPAGES </w:instrText>`);
    expect(footers['word/certified-footer.xml']).toContain(`Verification ${code}`);
    const ownFooter = Object.entries(footers).find(
      ([name, xml]) => /footer\d/.test(name) && xml.includes('Notaría 12'),
    )![1];
    expect(ownFooter).toContain(`Verification ${code}`);
    expect(footers['word/document.xml']).toMatch(/<w:footerReference w:type="first" r:id="rIdCertifiedFooter"\/>/);

    const view = await staffView(id);
    expect(view.certificate!.documents).toEqual([
      { name: 'carta.en.pdf', sourceName: 'carta.pdf', sha256: sha256(deliveredPdf), pageCount: 3 },
      { name: 'escritura.en.docx', sourceName: 'escritura.docx', sha256: sha256(deliveredDocx), pageCount: 1 },
    ]);
  });
});

describe('D20: public verification', () => {
  let code: string;
  let number: string;
  beforeAll(async () => {
    const { id } = await orderInReview();
    for (const file of (await staffView(id)).files.filter((f) => f.type === 'TRANSLATION'))
      await t.gql(ApproveTranslationDocument, { fileId: file.id }, reviewer.token);
    await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, reviewer.token);
    const view = await staffView(id);
    code = view.certificate!.code;
    number = view.number;
  });

  it('answers JSON for a real code, read in any case, with nothing beyond the account name', async () => {
    const res = await t.rest.get(`/api/v1/certificates/${code.toLowerCase()}`).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    expect(res.body.data).toMatchObject({
      code,
      order_number: number,
      account_name: 'Smith & Partners LLP',
      source_language: 'es',
      target_language: 'en',
      translator: { name: 'Ada Lovelace', credentials: 'ATA-certified translator no. 123456' },
      notarized: false,
      verification_url: `${t.config.appUrl}/verify/${code}`,
    });
    expect(res.body.data.documents.map((d: { name: string; page_count: number }) => [d.name, d.page_count])).toEqual([
      ['carta.en.pdf', 3],
      ['escritura.en.docx', 1],
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(new RegExp(`${alice.email}|${alice.id}|Matter 114|total_cents`));
    const graphql = await t.gql(CertificateDocument, { code });
    expect(graphql.data!.certificate).toMatchObject({
      code,
      orderNumber: number,
      accountName: 'Smith & Partners LLP',
      documents: res.body.data.documents.map(
        (d: { name: string; source_name: string; sha256: string; page_count: number }) => ({
          name: d.name,
          sourceName: d.source_name,
          sha256: d.sha256,
          pageCount: d.page_count,
        }),
      ),
    });
  });

  it('shows a self-contained HTML page for a real code', async () => {
    const res = await t.rest
      .raw()
      .get(`/verify/${code}`)
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    for (const expected of [
      code,
      number,
      'Smith &#38; Partners LLP',
      'Ada Lovelace',
      'carta.en.pdf',
      'escritura.en.docx',
      t.config.company.name,
    ])
      expect(res.text).toContain(expected);
    expect(res.text).not.toMatch(/<(link|img|iframe)\b|src="http|href="http/);
    expect(res.text).not.toContain(alice.email);
  });

  it('answers 404 for an unknown or malformed code on every door', async () => {
    for (const unknown of ['AAAA-BBBB-CCCC-DDDD', 'not-a-code', '%E2%80%8B']) {
      await t.rest.get(`/api/v1/certificates/${unknown}`).expect(404, { message: 'Not found.' });
      const page = await t.rest.raw().get(`/verify/${unknown}`).expect(404);
      expect(page.text).toContain('No certificate has this verification code');
    }
    const graphql = await t.gql(CertificateDocument, { code: 'AAAA-BBBB-CCCC-DDDD' });
    expect(graphql.data!.certificate).toBeNull();
    expect(graphql.errors![0].extensions!.code).toBe('NOT_FOUND');
  });
});

describe('D19: the staff desk', () => {
  it('assigns, keeps internal notes, finds orders by number, reference, account name, assignee and overdue', async () => {
    const { id } = await orderInReview({ reference: 'Estate of Ramírez' });
    const number = (await staffView(id)).number;
    const assigned = await t.gql(AssignOrderDocument, { orderId: id, staffUserId: reviewer.id }, colleague.token);
    expect(assigned.data!.assignOrder.assignee).toEqual({ id: reviewer.id, name: 'Ada Lovelace' });
    expect(
      (await t.gql(AssignOrderDocument, { orderId: id, staffUserId: alice.id }, colleague.token)).errors![0].extensions!
        .errors,
    ).toEqual({ staffUserId: ['The staff user id field must name an active staff user.'] });
    const note = await t.gql(
      AddOrderNoteDocument,
      { orderId: id, text: 'Seal on page 2 is illegible; flagged in the translation.' },
      reviewer.token,
    );
    expect(note.data!.addOrderNote).toMatchObject({ author: { name: 'Ada Lovelace' } });

    const byNumber = await t.gql(StaffOrderDocument, { number: number.toLowerCase() }, colleague.token);
    expect(byNumber.data!.staffOrder).toMatchObject({
      id,
      account: { id: alice.id, name: 'Smith & Partners LLP', email: alice.email },
      assignee: { name: 'Ada Lovelace' },
      notes: [{ text: 'Seal on page 2 is illegible; flagged in the translation.' }],
    });
    expect(
      (await t.gql(StaffOrderDocument, { number: 'LT-0000-NOPE00' }, colleague.token)).errors![0].extensions!.code,
    ).toBe('NOT_FOUND');

    const search = async (variables: object) =>
      (
        await t.gql(StaffOrderSearchDocument, { perPage: 100, ...variables }, colleague.token)
      ).data!.staffOrders.items.map((item) => item.id);
    expect(await search({ search: number })).toEqual([id]);
    expect(await search({ search: 'estate of ramírez' })).toEqual([id]);
    expect(await search({ search: 'Smith & Partners' })).toContain(id);
    expect(await search({ search: '100%_' })).toEqual([]);
    expect(await search({ assigneeId: reviewer.id })).toEqual([id]);
    expect(await search({ overdue: true })).not.toContain(id);
    await t.orm.em.fork().nativeUpdate(Order, { id }, { dueAt: new Date(Date.now() - 60_000) });
    expect(await search({ overdue: true, assigneeId: reviewer.id })).toEqual([id]);
    const page = (await t.gql(StaffOrderSearchDocument, { search: 'Smith', perPage: 1 }, colleague.token)).data!
      .staffOrders;
    expect(page.items).toHaveLength(1);
    expect(page.pageInfo.total).toBeGreaterThan(1);

    // Notes and the desk's fields are staff's only.
    const partner = await t.gql(OrderNotesDocument, { id }, alice.key);
    expect(partner.errors![0].extensions!.code).toBe('FORBIDDEN');
    const audit = (await t.gql(AuditLogDocument, { resourceId: id, perPage: 100 }, reviewer.token)).data!.auditLog
      .items;
    expect(audit.find((entry) => entry.action === 'order.assign')).toMatchObject({
      actorId: colleague.id,
      details: { assignee_id: reviewer.id, from_assignee_id: null },
    });
    expect(audit.map((entry) => entry.action)).toContain('order.add_note');
  });

  it("prints the certifying translator's own credentials once their profile says so", async () => {
    const updated = await t.gql(
      UpdateStaffProfileDocument,
      { id: colleague.id, name: 'Charles Babbage', credentials: 'Sworn translator, Tribunal de Madrid no. 42' },
      colleague.token,
    );
    expect(updated.data!.updateStaffProfile.credentials).toBe('Sworn translator, Tribunal de Madrid no. 42');
    const { id } = await orderInReview();
    for (const file of (await staffView(id)).files.filter((f) => f.type === 'TRANSLATION'))
      await t.gql(ApproveTranslationDocument, { fileId: file.id }, colleague.token);
    await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, colleague.token);
    expect((await staffView(id)).certificate!.translator).toEqual({
      name: 'Charles Babbage',
      credentials: 'Sworn translator, Tribunal de Madrid no. 42',
    });
  });
});
