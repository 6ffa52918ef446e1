import {
  AuditLogDocument,
  CancelOrderDocument,
  ConvertQuoteDocument,
  HoldOrderDocument,
  OrderByNumberDocument,
  OrderDocument,
  OrdersDocument,
  ReleaseOrderDocument,
  StaffCancelOrderDocument,
  StaffOrdersDocument,
} from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { gqlRaw } from '../helpers/graphql-raw';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { StatementLog } from '../helpers/statement-log';

let t: TestApp;
let staff: string;
let alice: TestAccount;
let bob: TestAccount;
let fileId: string;
const statements = new StatementLog();

beforeAll(async () => {
  t = await startTestApp({ onQuery: statements.record });
  staff = await createStaffToken(t);
  [alice, bob] = [await createApprovedAccount(t, staff), await createApprovedAccount(t, staff)];
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(300)] }), 'affidavit.docx')).id;
});
afterAll(() => t.close());

const REDIRECT = 'https://portal.example.test/orders/done';
const newQuote = async (extra: object = {}, key = alice.key, files = [fileId]) =>
  (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: files, ...extra },
        key,
      )
      .expect(201)
  ).body.data;
const convert = (quoteId: string, body?: object, key = alice.key) =>
  t.rest.post(`/api/v1/quotes/${quoteId}/convert`, body, key);
const getOrder = async (id: string, key = alice.key) =>
  (await t.rest.get(`/api/v1/orders/${id}`, key).expect(200)).body.data;
const checkoutPath = (approvalUrl: string) => approvalUrl.replace(t.config.appUrl, '');
const pay = async (approvalUrl: string) =>
  t.rest
    .raw()
    .post(`${checkoutPath(approvalUrl)}/pay`)
    .type('form')
    .send({});
const jobsFor = async (orderId: string) =>
  (
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'translate-order' AND data->>'orderId' = ?`, [
        orderId,
      ])
  )[0].n as number;

describe('the sandbox flow over HTTP: convert, checkout page, Pay, poll', () => {
  it('turns a priced quote into a paid order in processing, with its translation queued', async () => {
    const quote = await newQuote({ reference: 'Matter 7' });
    const converted = await convert(quote.id, { redirect_url: REDIRECT }).expect(201);
    expect(converted.body).toEqual({
      data: {
        id: expect.any(String),
        number: expect.stringMatching(/^LT-\d{4}-[A-Z0-9]{6}$/),
        status: 'pending_payment',
      },
      provider_approval_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/api\/v1\/sandbox\/checkout\/SBX-/),
    });
    const { id, number } = converted.body.data;
    const approvalUrl = converted.body.provider_approval_url;
    const yymm = new Date().toISOString().slice(2, 7).replace('-', '');
    expect(number.split('-')[1]).toBe(yymm);

    const pending = await getOrder(id);
    expect(pending).toMatchObject({
      status: 'pending_payment',
      quote_id: quote.id,
      total_cents: 300,
      reference: 'Matter 7',
      files: [{ id: fileId, type: 'source', name: 'affidavit.docx' }],
      payment: { provider: 'sandbox', approval_url: approvalUrl, paid_at: null, refunded_at: null },
      due_at: null,
    });
    expect(pending.files[0]).not.toHaveProperty('download_url');
    expect((await t.rest.get(`/api/v1/quotes/${quote.id}`, alice.key)).body.data.status).toBe('converted');

    const page = await t.rest.get(checkoutPath(approvalUrl)).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain(number);
    expect(page.text).toContain('$3.00');
    expect(page.text).toMatch(
      /<form method="post" action="[^"]+\/pay"><button type="submit" class="primary" aria-label="Pay \$3\.00">Pay/,
    );

    const paid = await pay(approvalUrl);
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe(`${REDIRECT}?payment=paid&order_id=${id}`);

    const processing = await getOrder(id);
    expect(processing.status).toBe('processing');
    expect(processing.payment.paid_at).toMatch(/Z$/);
    expect(Date.parse(processing.due_at) - Date.parse(processing.payment.paid_at)).toBe(48 * 3600 * 1000);
    expect(await jobsFor(id)).toBe(1);

    // Paying again (a double click, a replayed return) changes nothing.
    expect((await pay(approvalUrl)).status).toBe(303);
    expect((await getOrder(id)).payment.paid_at).toBe(processing.payment.paid_at);
    expect(await jobsFor(id)).toBe(1);
    expect((await t.rest.get(checkoutPath(approvalUrl))).text).toContain('already paid');
  });

  it('makes a rush order due two hours after payment', async () => {
    const quote = await newQuote({ addons: [{ code: 'rush_2h' }] });
    const converted = (await convert(quote.id).expect(201)).body;
    const done = await pay(converted.provider_approval_url);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Payment received');
    const order = await getOrder(converted.data.id);
    expect(Date.parse(order.due_at) - Date.parse(order.payment.paid_at)).toBe(2 * 3600 * 1000);
  });

  it('leaves the order waiting when the customer cancels at the checkout', async () => {
    const converted = (await convert((await newQuote()).id, { redirect_url: REDIRECT }).expect(201)).body;
    const back = await t.rest
      .raw()
      .post(`${checkoutPath(converted.provider_approval_url)}/cancel`)
      .type('form')
      .send({});
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe(`${REDIRECT}?payment=cancelled&order_id=${converted.data.id}`);
    expect((await getOrder(converted.data.id)).status).toBe('pending_payment');
  });
});

describe('convert (D9)', () => {
  it('converts a quote once; the second call is 422', async () => {
    const quote = await newQuote();
    await convert(quote.id).expect(201);
    const again = await convert(quote.id).expect(422);
    expect(again.body.errors).toEqual({ quote: ['The quote has already been converted.'] });
  });

  it('makes exactly one order from ten concurrent converts', async () => {
    const quote = await newQuote();
    const results = await Promise.all(Array.from({ length: 10 }, () => convert(quote.id)));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(422)]);
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT count(*)::int AS n FROM orders WHERE quote_id = ?`, [quote.id]);
    expect(rows[0].n).toBe(1);
  });

  it("refuses an expired quote, a bad redirect_url, and another account's quote", async () => {
    const expired = await newQuote();
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`UPDATE quotes SET expires_at = now() - interval '1 second' WHERE id = ?`, [expired.id]);
    expect((await convert(expired.id).expect(422)).body.errors).toEqual({ quote: ['The quote has expired.'] });

    const quote = await newQuote();
    for (const bad of ['not a url', 'ftp://x.example/y', '/relative/path', `https://x.example/${'a'.repeat(2050)}`]) {
      const res = await convert(quote.id, { redirect_url: bad }).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['redirect_url']);
    }
    await convert(quote.id, {}, bob.key).expect(404);
    await convert('nope').expect(404);
    await convert(quote.id).expect(201);
  });

  it('converts over GraphQL with the approval URL', async () => {
    const quote = await newQuote();
    const { data, errors } = await t.gql(ConvertQuoteDocument, { id: quote.id, redirectUrl: REDIRECT }, alice.key);
    expect(errors).toBeUndefined();
    expect(data!.convertQuote.order).toMatchObject({
      status: 'PENDING_PAYMENT',
      quoteId: quote.id,
      files: [{ id: fileId, type: 'SOURCE', downloadUrl: null }],
    });
    expect(data!.convertQuote.approvalUrl).toBe(data!.convertQuote.order.payment.approvalUrl);
  });
});

describe('cancelling (cancelOrder; D10)', () => {
  it('cancels a pending order, voiding its checkout', async () => {
    const converted = (await convert((await newQuote()).id).expect(201)).body;
    const res = await t.rest.post(`/api/v1/orders/${converted.data.id}/cancel`, undefined, alice.key).expect(200);
    expect(res.body.data).toMatchObject({ status: 'cancelled', cancelled_at: expect.stringMatching(/Z$/) });
    const closed = await pay(converted.provider_approval_url);
    expect(closed.status).toBe(409);
    expect(closed.text).toContain('can no longer be paid');
    expect((await getOrder(converted.data.id)).status).toBe('cancelled');
    const again = await t.rest.post(`/api/v1/orders/${converted.data.id}/cancel`, undefined, alice.key).expect(422);
    expect(again.body.errors).toEqual({ status: ['Cannot cancel the order while the status is cancelled.'] });
  });

  it('refuses to cancel a paid order in processing, changing nothing', async () => {
    const converted = (await convert((await newQuote()).id).expect(201)).body;
    await pay(converted.provider_approval_url);
    const res = await t.rest.post(`/api/v1/orders/${converted.data.id}/cancel`, undefined, alice.key).expect(422);
    expect(res.body).toEqual({
      message: 'Cannot cancel the order while the status is processing.',
      errors: { status: ['Cannot cancel the order while the status is processing.'] },
    });
    expect((await getOrder(converted.data.id)).status).toBe('processing');
  });

  it('refunds a paid order on hold when the client cancels it', async () => {
    const converted = (await convert((await newQuote()).id).expect(201)).body;
    await pay(converted.provider_approval_url);
    const held = await t.gql(HoldOrderDocument, { id: converted.data.id, reason: 'Unreadable scan on page 3' }, staff);
    expect(held.data!.holdOrder).toMatchObject({ status: 'ON_HOLD', holdReason: 'Unreadable scan on page 3' });
    const view = await getOrder(converted.data.id);
    expect(view).toMatchObject({ status: 'on_hold', hold_reason: 'Unreadable scan on page 3' });

    const cancelled = await t.gql(CancelOrderDocument, { id: converted.data.id }, alice.key);
    expect(cancelled.data!.cancelOrder).toMatchObject({
      status: 'CANCELLED',
      payment: { refundedAt: expect.stringMatching(/Z$/) },
    });
    expect((await getOrder(converted.data.id)).payment.refunded_at).toMatch(/Z$/);
  });

  it("hides another account's orders behind 404 on both doors", async () => {
    const converted = (await convert((await newQuote()).id).expect(201)).body;
    await t.rest.get(`/api/v1/orders/${converted.data.id}`, bob.key).expect(404);
    await t.rest.post(`/api/v1/orders/${converted.data.id}/cancel`, undefined, bob.key).expect(404);
    expect((await t.gql(OrderDocument, { id: converted.data.id }, bob.key)).errors![0].extensions!.code).toBe(
      'NOT_FOUND',
    );
    await t.rest.get('/api/v1/orders/not-an-id', alice.key).expect(404);
    // By its number (as e-mails print it, in any case): the account's own only.
    const { number } = converted.data;
    const own = await t.gql(OrderByNumberDocument, { number: ` ${number.toLowerCase()} ` }, alice.key);
    expect(own.data!.orderByNumber).toEqual({ id: converted.data.id, number });
    for (const [asked, key] of [
      [number, bob.key],
      ['LT-0000-NOSUCH', alice.key],
      ['x'.repeat(10_000), alice.key],
      ['LT\u0000', alice.key],
    ])
      expect((await t.gql(OrderByNumberDocument, { number: asked }, key)).errors![0].extensions!.code).toBe(
        'NOT_FOUND',
      );
  });

  it('answers an unknown order as null with NOT_FOUND, leaving the rest of the GraphQL request answered', async () => {
    const converted = (await convert((await newQuote()).id).expect(201)).body;
    const query = `{ mine: order(id: "${converted.data.id}") { number } unknown: order(id: "00000000-0000-4000-8000-000000000000") { number } }`;
    const res = await gqlRaw(t.rest.raw(), query, { token: alice.key });
    expect(res.data).toEqual({ mine: { number: converted.data.number }, unknown: null });
    expect(res.errors).toEqual([expect.objectContaining({ path: ['unknown'], extensions: { code: 'NOT_FOUND' } })]);
  });
});

describe('staff moves (D10), audited', () => {
  it('holds and releases back to the state the hold interrupted, requeuing the work', async () => {
    const converted = (await convert((await newQuote()).id).expect(201)).body;
    const id = converted.data.id;
    await t.gql(HoldOrderDocument, { id, reason: 'Client asked to wait' }, staff);
    // Paid while held: stays held, and release resumes processing.
    await pay(converted.provider_approval_url);
    expect((await getOrder(id)).status).toBe('on_hold');
    expect(await jobsFor(id)).toBe(0);
    const released = await t.gql(ReleaseOrderDocument, { id }, staff);
    expect(released.data!.releaseOrder).toMatchObject({ status: 'PROCESSING', holdReason: null });
    expect(await jobsFor(id)).toBe(1);

    const notHeld = await t.gql(ReleaseOrderDocument, { id }, staff);
    expect(notHeld.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { status: ['Cannot release the order while the status is processing.'] },
    });
    const noReason = await t.gql(HoldOrderDocument, { id, reason: ' ' }, staff);
    expect(noReason.errors![0].extensions!.errors).toEqual({ reason: ['The reason field is required.'] });

    const audit = await t.gql(AuditLogDocument, { resourceId: id }, staff);
    expect(audit.data!.auditLog.items.map((e) => [e.action, e.fromState, e.toState])).toEqual([
      ['order.release', 'on_hold', 'processing'],
      ['order.paid', 'on_hold', 'on_hold'],
      ['order.hold', 'pending_payment', 'on_hold'],
    ]);
  });

  it('cancels a paid order with a refund, and lists orders by due time', async () => {
    const converted = (await convert((await newQuote()).id).expect(201)).body;
    await pay(converted.provider_approval_url);
    const cancelled = await t.gql(
      StaffCancelOrderDocument,
      { id: converted.data.id, reason: 'Duplicate order' },
      staff,
    );
    expect(cancelled.data!.staffCancelOrder).toMatchObject({
      status: 'CANCELLED',
      payment: { refundedAt: expect.any(String) },
    });
    const audit = await t.gql(AuditLogDocument, { resourceId: converted.data.id }, staff);
    expect(audit.data!.auditLog.items[0]).toMatchObject({
      action: 'order.cancel',
      fromState: 'processing',
      toState: 'cancelled',
      details: { reason: 'Duplicate order' },
    });

    const list = await t.gql(StaffOrdersDocument, { status: 'PROCESSING', perPage: 100 }, staff);
    const due = list.data!.staffOrders.items.map((o) => Date.parse(o.dueAt!));
    expect(due).toEqual([...due].sort((a, b) => a - b));
    expect((await t.gql(StaffOrdersDocument, {}, alice.key)).errors![0].extensions!.code).toBe('FORBIDDEN');
    const bad = await t.gql(StaffOrdersDocument, { accountId: 'nope' }, staff);
    expect(bad.errors![0].extensions!.errors).toEqual({ accountId: ['The account id field must be a valid id.'] });
  });
});

describe('lists and polling', () => {
  it("lists the caller's orders newest first with a status filter, on both doors", async () => {
    // Cancelled is final: the workers of this app keep moving processing orders on while the test reads.
    const list = await t.rest.get('/api/v1/orders?status=cancelled&per_page=2', alice.key).expect(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.every((o: { status: string }) => o.status === 'cancelled')).toBe(true);
    expect(Date.parse(list.body.data[0].created_at)).toBeGreaterThanOrEqual(Date.parse(list.body.data[1].created_at));
    expect(list.body.meta.per_page).toBe(2);
    expect((await t.rest.get('/api/v1/orders?status=shipped', alice.key).expect(422)).body.errors).toEqual({
      status: ['The selected status is invalid.'],
    });
    // Arrays as PHP and Rails write them, or a repeated filter: refused, never answered unfiltered.
    for (const query of [
      'status[]=cancelled',
      'status[0]=cancelled',
      'status=cancelled&status[]=cancelled',
      'status=cancelled&status=completed',
      'per_page[]=2',
    ]) {
      const refused = await t.rest.get(`/api/v1/orders?${query}`, alice.key).expect(422);
      expect(Object.keys(refused.body.errors)).toEqual([query.startsWith('per_page') ? 'per_page' : 'status']);
    }
    const gql = await t.gql(OrdersDocument, { status: 'CANCELLED', perPage: 2 }, alice.key);
    expect(gql.data!.orders.items.map((o) => o.id)).toEqual(list.body.data.map((o: { id: string }) => o.id));
    expect((await t.rest.get('/api/v1/orders', bob.key).expect(200)).body.meta.total).toBe(0);
  });

  it('answers GET /orders/{id} and a page of orders in a constant number of queries', async () => {
    const files = [];
    for (let i = 0; i < 4; i++)
      files.push((await uploadFile(t, alice.key, await docx({ paragraphs: [words(10)] }), `f${i}.docx`)).id);
    for (const id of files) await waitForAnalysis(t, alice.key, id);
    const small = (await convert((await newQuote({}, alice.key, [files[0]])).id).expect(201)).body.data.id;
    const large = (await convert((await newQuote({}, alice.key, files)).id).expect(201)).body.data.id;
    const count = async (path: string) => statements.of(await t.rest.get(path, alice.key).expect(200)).length;
    const forSmall = await count(`/api/v1/orders/${small}`);
    expect(await count(`/api/v1/orders/${large}`)).toBe(forSmall);
    // The key's look-up reads the order with its payment and its files in one statement; the rate limit counts in
    // memory (D24).
    expect(forSmall).toBe(1);
    // GraphQL polls the same way once it has read the document (D23, D36): the order is read with the key, its files
    // with it, so asking for them costs no statement more.
    const viaGraphQL = async (id: string) =>
      statements.of(
        await gqlRaw(
          t.rest.raw(),
          'query ($id: ID!) { order(id: $id) { status files { id downloadUrl } payment { paidAt } } }',
          { token: alice.key, variables: { id } },
        ),
      );
    expect(await viaGraphQL(large)).toHaveLength(2);
    expect(await viaGraphQL(large)).toHaveLength(1);
    expect(await viaGraphQL(small)).toHaveLength(1);
    const page2 = await count('/api/v1/orders?per_page=2');
    expect(await count('/api/v1/orders?per_page=20')).toBe(page2);
  });
});
