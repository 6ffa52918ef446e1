import {
  ApproveTranslationDocument,
  CompleteCertifiedOrderDocument,
  CreateQuoteWithInstructionsDocument,
  OrderInstructionsDocument,
  StaffOrderDocument,
  StaffOrderInstructionsDocument,
} from '../graphql/generated';
import { createStaffMember, download, pdfText } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D30: instructions to the translator, given on the quote, echoed on it, carried to its order on both doors, read by
 * staff, and printed nowhere the court sees. A client that never sends them sees only a new field, null.
 */
let t: TestApp;
let staff: string;
let reviewer: string;
let alice: TestAccount;
let fileId: string;
const SPELLING = 'Spell the petitioner as on her passport: María José GARCÍA LÓPEZ; keep "acta de nacimiento".';

beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t);
  reviewer = (await createStaffMember(t, { name: 'Rosa Reviewer', credentials: 'ATA-certified translator no. 1' }))
    .token;
  alice = await createApprovedAccount(t, staff);
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(200)] }), 'acta.docx')).id;
});
afterAll(() => t.close());

const quoteBody = (extra: object = {}) => ({
  source_language: 'es',
  target_language: 'en',
  service_type: 'standard',
  file_ids: [fileId],
  ...extra,
});
const quoteCount = async () => (await t.rest.get('/api/v1/quotes?per_page=1', alice.key).expect(200)).body.meta.total;

describe('instructions through REST', () => {
  it('are echoed on the quote and carried to its order, trimmed, and read back on the order and in the list', async () => {
    const quote = await t.rest
      .post('/api/v1/quotes', quoteBody({ instructions: `  ${SPELLING}\n` }), alice.key)
      .expect(201);
    expect(quote.body.data.instructions).toBe(SPELLING);
    expect(
      (await t.rest.get(`/api/v1/quotes/${quote.body.data.id}`, alice.key).expect(200)).body.data.instructions,
    ).toBe(SPELLING);
    const order = await t.rest.post(`/api/v1/quotes/${quote.body.data.id}/convert`, undefined, alice.key).expect(201);
    const id = order.body.data.id;
    expect((await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data.instructions).toBe(SPELLING);
    const listed = (await t.rest.get('/api/v1/orders?per_page=100', alice.key).expect(200)).body.data;
    expect(listed.find((item: { id: string }) => item.id === id).instructions).toBe(SPELLING);
  });

  it('are null on the quote and the order of a client that never sends them', async () => {
    const quote = await t.rest.post('/api/v1/quotes', quoteBody(), alice.key).expect(201);
    expect(quote.body.data).toHaveProperty('instructions', null);
    const order = await t.rest.post(`/api/v1/quotes/${quote.body.data.id}/convert`, undefined, alice.key).expect(201);
    expect((await t.rest.get(`/api/v1/orders/${order.body.data.id}`, alice.key).expect(200)).body.data).toHaveProperty(
      'instructions',
      null,
    );
  });

  it('take 2,000 characters and refuse 2,001 or a non-string with 422 under instructions, making no quote', async () => {
    const longest = 'é'.repeat(2000);
    expect(
      (await t.rest.post('/api/v1/quotes', quoteBody({ instructions: longest }), alice.key).expect(201)).body.data
        .instructions,
    ).toBe(longest);
    const before = await quoteCount();
    const tooLong = await t.rest
      .post('/api/v1/quotes', quoteBody({ instructions: 'é'.repeat(2001) }), alice.key)
      .expect(422);
    expect(tooLong.body.errors).toEqual({
      instructions: ['The instructions field must not be greater than 2000 characters.'],
    });
    const notText = await t.rest.post('/api/v1/quotes', quoteBody({ instructions: ['x'] }), alice.key).expect(422);
    expect(notText.body.errors).toEqual({ instructions: ['The instructions field must be a string.'] });
    expect(await quoteCount()).toBe(before);
  });
});

describe('instructions through GraphQL', () => {
  it('are echoed on the quote, carried to the order, shown to staff, and refused over 2,000 characters', async () => {
    const made = await t.gql(
      CreateQuoteWithInstructionsDocument,
      { fileIds: [fileId], instructions: SPELLING },
      alice.key,
    );
    expect(made.data!.createQuote.instructions).toBe(SPELLING);
    const order = await t.rest.post(`/api/v1/quotes/${made.data!.createQuote.id}/convert`, undefined, alice.key);
    const id = order.body.data.id;
    expect((await t.gql(OrderInstructionsDocument, { id }, alice.key)).data!.order!.instructions).toBe(SPELLING);

    const seen = (await t.gql(StaffOrderInstructionsDocument, { id }, staff)).data!;
    expect(seen.staffOrder!.instructions).toBe(SPELLING);
    expect(seen.staffOrders.items.find((item) => item.id === id)!.instructions).toBe(SPELLING);

    const before = await quoteCount();
    const refused = await t.gql(
      CreateQuoteWithInstructionsDocument,
      { fileIds: [fileId], instructions: 'x'.repeat(2001) },
      alice.key,
    );
    expect(refused.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { instructions: ['The instructions field must not be greater than 2000 characters.'] },
    });
    expect(await quoteCount()).toBe(before);
  });
});

describe('what the court sees', () => {
  it('never prints the instructions on the certificate of accuracy', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(150)] }), 'deed.docx')).id;
    const id = await paidOrder(t, alice, [source], 'certified', { instructions: SPELLING });
    await waitForStatus(t, alice, id, 'in_review');
    const translation = (await t.gql(StaffOrderDocument, { id }, reviewer)).data!.staffOrder!.files.find(
      (file) => file.type === 'TRANSLATION',
    )!;
    expect((await t.gql(ApproveTranslationDocument, { fileId: translation.id }, reviewer)).errors).toBeUndefined();
    expect((await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, reviewer)).errors).toBeUndefined();

    const completed = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
    expect(completed.instructions).toBe(SPELLING);
    const certificate = completed.files.find((file: { type: string }) => file.type === 'certificate');
    const { text } = await pdfText(await download(t, certificate.download_url));
    expect(text).toContain(completed.number);
    for (const fragment of ['passport', 'GARCÍA LÓPEZ', 'acta de nacimiento']) expect(text).not.toContain(fragment);
  });
});
