import {
  type BillingTerms,
  ConfirmInterpretationAvailabilityDocument,
  ConvertOnAccountDocument,
  SetAccountBillingDocument,
} from '../graphql/generated';
import { requestBooking } from './bookings';
import { docx, words } from './documents';
import { createApprovedAccount, type TestAccount } from './fixtures';
import { uploadFile } from './files';
import type { TestApp } from './test-app';

/** A new account on NET_30 terms (D31) with `creditLimitCents`, and a 700-word source uploaded for its quotes. */
export async function termsAccount(
  t: TestApp,
  admin: string,
  creditLimitCents = 10_000_000,
): Promise<{ account: TestAccount; fileId: string }> {
  const account = await createApprovedAccount(t, admin);
  const set = await t.gql(
    SetAccountBillingDocument,
    { accountId: account.id, terms: 'NET_30' as BillingTerms, creditLimitCents, purchaseOrderRequired: false },
    admin,
  );
  expect(set.errors).toBeUndefined();
  const fileId = (await uploadFile(t, account.key, await docx({ paragraphs: [words(700)] }), 'brief.docx')).id;
  return { account, fileId };
}

/** A booking of `account` (on terms) confirmed by `staff` and placed on account through its page: `confirmed`. */
export async function placedBooking(t: TestApp, staff: string, account: TestAccount) {
  const booking = await requestBooking(t, account.key);
  const confirmed = await t.gql(
    ConfirmInterpretationAvailabilityDocument,
    { id: booking.id, interpreterName: 'R. Diaz' },
    staff,
  );
  expect(confirmed.errors).toBeUndefined();
  const read = async () =>
    (
      (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, account.key).expect(200)).body as {
        data: { status: string; total_cents: number; payment: { approval_url: string } };
      }
    ).data;
  await placeOnAccount(t, (await read()).payment.approval_url, 'booking');
  const after = await read();
  expect(after.status).toBe('confirmed');
  return { id: booking.id, number: booking.number, total: after.total_cents };
}

/** The client places the work on account at the page its approval link opens (D31), pressing its one button. */
export async function placeOnAccount(t: TestApp, approvalUrl: string, what: 'order' | 'booking'): Promise<void> {
  const page = approvalUrl.replace(t.config.appUrl, '');
  expect(page).toMatch(/^\/api\/v1\/on-account\//);
  expect((await t.rest.raw().get(page).expect(200)).text).toContain(`>Place ${what} on account</button>`);
  await t.rest.raw().post(`${page}/place`).type('form').send({}).expect(200);
}

/** A standard German-to-English quote of `account` for `fileId` (`extra`: more of its fields), through REST. */
export async function quoteFor(
  t: TestApp,
  account: TestAccount,
  fileId: string,
  extra: object = {},
): Promise<{ id: string; total_cents: number; purchase_order: string | null }> {
  const answer = await t.rest
    .post(
      '/api/v1/quotes',
      { source_language: 'de', target_language: 'en', service_type: 'standard', file_ids: [fileId], ...extra },
      account.key,
    )
    .expect(201);
  return (answer.body as { data: { id: string; total_cents: number; purchase_order: string | null } }).data;
}

/** An order of `account` quoted for `fileId` (matter "Matter 12") and placed on account at once (GraphQL onAccount). */
export async function placedOnAccount(
  t: TestApp,
  account: TestAccount,
  fileId: string,
  purchaseOrder: string | null = null,
): Promise<{ id: string; number: string; total: number }> {
  const quote = await quoteFor(t, account, fileId, {
    reference: 'Matter 12',
    ...(purchaseOrder ? { purchase_order: purchaseOrder } : {}),
  });
  const placed = await t.gql(ConvertOnAccountDocument, { id: quote.id, onAccount: true }, account.key);
  expect(placed.data?.convertQuote.order.status).toBe('PROCESSING');
  const { id, number } = placed.data!.convertQuote.order;
  return { id, number, total: quote.total_cents };
}
