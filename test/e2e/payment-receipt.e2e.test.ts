import { SentEmailsDocument } from '../graphql/generated';
import { pdf, SCANNED } from '../helpers/documents';
import { waitForAnalysis, uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D29: the receipt of a paid order says what it pays for, billing pages beside the pages on paper. */
let t: TestApp;
let staff: string;
let own: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t);
  own = await createApprovedAccount(t, staff);
});
afterAll(() => t.close());

it('names the billing pages and the document pages, scans included', async () => {
  const { id } = await uploadFile(
    t,
    own.key,
    await pdf(['The quick brown fox jumps over the lazy dog.', ...Array(9).fill(SCANNED)]),
    'mixed.pdf',
  );
  await waitForAnalysis(t, own.key, id);
  const orderId = await paidOrder(t, own, [id], 'certified');
  const { number } = (await t.rest.get(`/api/v1/orders/${orderId}`, own.key).expect(200)).body.data;
  const mails = (await t.gql(SentEmailsDocument, { to: own.email, perPage: 100 }, staff)).data!.sentEmails.items;
  const receipt = mails.find((mail) => mail.kind === 'payment_receipt' && mail.subject.includes(number));
  expect(receipt?.text).toContain(
    'It pays for 10 billing pages (250 words each) for 10 document pages, 9 of them scanned (one billing page each).',
  );
});
