import {
  ApproveTranslationDocument,
  CompleteCertifiedOrderDocument,
  OrderCertificateDocument,
  OrdersCertificatesDocument,
  StaffOrderCertificateDocument,
  StaffOrderDocument,
} from '../graphql/generated';
import { createStaffMember } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D29: a client reads its own certificate's verification code and URL on the completed order, on both doors. */
let t: TestApp;
let reviewer: string;
let alice: TestAccount;
const statements = new StatementLog();
beforeAll(async () => {
  t = await startTestApp({ onQuery: statements.record });
  const staff = await createStaffToken(t);
  reviewer = (await createStaffMember(t, { name: 'Rosa Reviewer', credentials: 'ATA-certified translator no. 123456' }))
    .token;
  alice = await createApprovedAccount(t, staff);
});
afterAll(() => t.close());

const rest = async (id: string) => (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
const graphql = async (id: string) => (await t.gql(OrderCertificateDocument, { id }, alice.key)).data!.order!;

/** A certified order whose machine translation is approved: in review, ready to complete. */
async function reviewedOrder(): Promise<string> {
  const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(300)] }), 'deed.docx')).id;
  const id = await paidOrder(t, alice, [source], 'certified');
  await waitForStatus(t, alice, id, 'in_review');
  const translation = (await t.gql(StaffOrderDocument, { id }, reviewer)).data!.staffOrder!.files.find(
    (file) => file.type === 'TRANSLATION',
  )!;
  expect((await t.gql(ApproveTranslationDocument, { fileId: translation.id }, reviewer)).errors).toBeUndefined();
  return id;
}

describe('the certificate on the order (D29)', () => {
  it('shows the verification code and URL once a certified order is completed, the same on both doors and for staff, at no extra statement', async () => {
    const id = await reviewedOrder();
    expect((await rest(id)).certificate).toBeNull();
    expect((await graphql(id)).certificate).toBeNull();

    expect((await t.gql(CompleteCertifiedOrderDocument, { orderId: id }, reviewer)).errors).toBeUndefined();
    const polled = await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200);
    // No statement more for the polled order: the key's look-up reads the order with everything it shows (D23).
    expect(statements.of(polled)).toHaveLength(1);
    const { certificate } = polled.body.data;
    expect(certificate).toEqual({
      verification_code: expect.stringMatching(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/),
      verify_url: `${t.config.appUrl}/verify/${certificate.verification_code}`,
    });
    expect((await graphql(id)).certificate).toEqual({
      verificationCode: certificate.verification_code,
      verifyUrl: certificate.verify_url,
    });
    const listed = (await t.gql(OrdersCertificatesDocument, {}, alice.key)).data!.orders.items.find(
      (order) => order.id === id,
    )!;
    expect(listed.certificate).toEqual({
      verificationCode: certificate.verification_code,
      verifyUrl: certificate.verify_url,
    });
    expect(
      (await t.rest.get('/api/v1/orders?per_page=100', alice.key).expect(200)).body.data.find(
        (order: { id: string }) => order.id === id,
      ).certificate,
    ).toEqual(certificate);
    expect((await t.gql(StaffOrderCertificateDocument, { id }, reviewer)).data!.staffOrder!.certificate).toEqual({
      verificationCode: certificate.verification_code,
      verifyUrl: certificate.verify_url,
    });

    // The code is the one the public verification knows.
    const verified = (await t.rest.get(`/api/v1/certificates/${certificate.verification_code}`).expect(200)).body.data;
    expect(verified).toMatchObject({ code: certificate.verification_code, order_number: (await rest(id)).number });
    await t.rest.raw().get(new URL(certificate.verify_url).pathname).expect(200);
  });

  it('is null on a standard order, completed or not', async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(50)] }), 'memo.docx')).id;
    const id = await paidOrder(t, alice, [source]);
    await waitForStatus(t, alice, id, 'completed');
    expect((await rest(id)).certificate).toBeNull();
    expect((await graphql(id)).certificate).toBeNull();
  });
});
