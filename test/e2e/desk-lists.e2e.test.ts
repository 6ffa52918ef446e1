import {
  AssignOrderDocument,
  ConfirmInterpretationAvailabilityDocument,
  DeskBookingListDocument,
  DeskBookingOneDocument,
  DeskOrderListDocument,
  DeskOrderOneDocument,
} from '../graphql/generated';
import { createStaffMember } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { requestBooking } from '../helpers/bookings';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { gqlRaw } from '../helpers/graphql-raw';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The desks' lists read their pages as the partner lists do, mapped onto the answer instead of hydrated
 * (docs/architecture.md, "Lists at scale"); the desks' look-ups still load entities. Every field staff can read of an
 * item answers the same on both, for orders and bookings in each state that changes what they show.
 */
let t: TestApp;
let alice: TestAccount;
let admin: string;
const statements = new StatementLog();
beforeAll(async () => {
  t = await startTestApp({ onQuery: statements.record });
  admin = await createStaffToken(t);
  alice = await createApprovedAccount(t, admin);
});
afterAll(() => t.close());

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

it("answers each order of the desk's list as the desk's look-up does", async () => {
  const file = async () =>
    (await uploadFile(t, alice.key, await docx({ paragraphs: [words(60)] }), 'statement.docx')).id;
  const completed = await paidOrder(t, alice, [await file()]);
  const certified = await paidOrder(t, alice, [await file()], 'certified');
  const unpaidQuote = await t.rest
    .post(
      '/api/v1/quotes',
      { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [await file()] },
      alice.key,
    )
    .expect(201);
  const unpaid = (await t.rest.post(`/api/v1/quotes/${unpaidQuote.body.data.id}/convert`, undefined, alice.key)).body
    .data.id as string;
  await waitForStatus(t, alice, completed, 'completed');
  await waitForStatus(t, alice, certified, 'in_review');
  const reviewer = await createStaffMember(t, { name: 'Ada Lovelace' });
  expect(
    (await t.gql(AssignOrderDocument, { orderId: certified, staffUserId: reviewer.id }, admin)).errors,
  ).toBeUndefined();

  const list = await t.gql(DeskOrderListDocument, { accountId: alice.id }, admin);
  expect(list.errors).toBeUndefined();
  const items = list.data!.staffOrders.items;
  expect(new Set(items.map((order) => order.id))).toEqual(new Set([completed, certified, unpaid]));
  for (const item of items) {
    const one = await t.gql(DeskOrderOneDocument, { id: item.id }, admin);
    expect(one.errors).toBeUndefined();
    expect(item).toEqual(one.data!.staffOrder);
  }
  // What the states show: the staff's view of each payment, files, and an assignee.
  const byId = new Map(items.map((order) => [order.id, order]));
  expect(byId.get(completed)!.payment).toMatchObject({ status: 'CAPTURED', currency: 'USD', refundedCents: 0 });
  expect(
    byId
      .get(completed)!
      .files.map((f) => f.type)
      .sort(),
  ).toEqual(['SOURCE', 'TRANSLATION']);
  expect(byId.get(certified)!.assignee).toMatchObject({ name: 'Ada Lovelace' });
  expect(byId.get(unpaid)!.payment).toMatchObject({ status: 'CREATED', capturedCents: 0, paidAt: null });
});

it("answers each booking of the desk's list as the desk's look-up does", async () => {
  const book = async () => (await requestBooking(t, alice.key, { scheduled_at: inDays(10) })).id;
  const requested = await book();
  const awaiting = await book();
  const paid = await book();
  for (const id of [awaiting, paid]) {
    const confirmed = await t.gql(
      ConfirmInterpretationAvailabilityDocument,
      { id, interpreterName: 'Ana Ruiz' },
      admin,
    );
    expect(confirmed.errors).toBeUndefined();
    if (id === paid) {
      const payUrl = confirmed.data!.confirmInterpretationAvailability.payment.approvalUrl!.replace(
        t.config.appUrl,
        '',
      );
      await t.rest.raw().post(`${payUrl}/pay`).type('form').send({}).expect(200);
    }
  }

  const list = await t.gql(DeskBookingListDocument, { accountId: alice.id }, admin);
  expect(list.errors).toBeUndefined();
  const items = list.data!.staffInterpretationBookings.items;
  expect(new Set(items.map((booking) => booking.id))).toEqual(new Set([requested, awaiting, paid]));
  for (const item of items) {
    const one = await t.gql(DeskBookingOneDocument, { id: item.id }, admin);
    expect(one.errors).toBeUndefined();
    expect(item).toEqual(one.data!.staffInterpretationBooking);
  }
  const byId = new Map(items.map((booking) => [booking.id, booking]));
  expect(byId.get(paid)!.payment).toMatchObject({ status: 'CAPTURED', capturedCents: expect.any(Number) });
  expect(byId.get(awaiting)!.payment).toMatchObject({
    status: 'CREATED',
    capturedCents: 0,
    approvalUrl: expect.any(String),
  });
  expect(byId.get(requested)!.payment).toMatchObject({ status: null, approvalUrl: null });
});

it('reads a page with every staff field in the same few statements, whatever its size', async () => {
  const ORDERS = `query ($accountId: ID, $perPage: Int) { staffOrders(accountId: $accountId, perPage: $perPage) { items {
    id account { name } assignee { name } files { id } payment { status capturedCents } certificate { code }
    notes { text author { name } } reviews { kind reviewer { name } } notarization { notaryName recordedBy { name } }
    revisionOf { number } revisions { number } referenceFiles { name } } } }`;
  const BOOKINGS = `query ($accountId: ID, $perPage: Int) {
    staffInterpretationBookings(accountId: $accountId, perPage: $perPage) {
      items { id account { name } payment { status } notes { text author { name } } } } }`;
  for (const [query, most] of [
    [ORDERS, 11],
    [BOOKINGS, 5],
  ] as const) {
    const counts = [];
    for (const perPage of [1, 3]) {
      const answer = await gqlRaw(t.rest.raw(), query, { token: admin, variables: { accountId: alice.id, perPage } });
      expect(answer.errors).toBeUndefined();
      expect((Object.values(answer.data!)[0] as { items: unknown[] }).items).toHaveLength(perPage);
      counts.push(statements.of(answer).length);
    }
    // The staff token, the page's ids, its count and its rows; then one statement a field of the items asks, not one
    // an item (orders: certificates, notes, reviews, notarizations, and revisions' three; bookings: notes).
    expect(counts[1]).toBe(counts[0]);
    expect(counts[0]).toBeLessThanOrEqual(most);
  }
});
