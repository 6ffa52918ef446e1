import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AuditLogDocument,
  type BillingTerms,
  CloseInvoicesDocument,
  ConvertOnAccountDocument,
  CreateQuoteWithPurchaseOrderDocument,
  RecordInvoicePaymentDocument,
  SentEmailsDocument,
  SetAccountBillingDocument,
  VoidInvoiceDocument,
} from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { memberSession, signInAs } from '../helpers/members';
import { quoteFor } from '../helpers/terms';
import { waitForStatus } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D31 on both doors: admin staff set an account's terms (a desk user cannot), quotes carry a purchase order (at most
 * 64 characters, required when the account says so), and on terms the contract's flow is unchanged: convert answers
 * `pending_payment` and a URL that opens the "Place order on account" page, whose button moves the order on as a paid
 * checkout does; GraphQL places it at once; past the credit limit the page offers the card and GraphQL says 422.
 */
let t: TestApp;
let admin: string;
let desk: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createStaffToken(t);
  desk = await createStaffToken(t, StaffRole.DESK);
});
afterAll(() => t.close());

async function termsAccount(creditLimitCents = 1_000_000, purchaseOrderRequired = false) {
  const account = await createApprovedAccount(t, admin);
  const set = await t.gql(
    SetAccountBillingDocument,
    { accountId: account.id, terms: 'NET_30' as BillingTerms, creditLimitCents, purchaseOrderRequired },
    admin,
  );
  expect(set.errors).toBeUndefined();
  const fileId = (await uploadFile(t, account.key, await docx({ paragraphs: [words(500)] }), 'brief.docx')).id;
  return { account, fileId };
}

const quote = (account: TestAccount, fileId: string, extra: object = {}) => quoteFor(t, account, fileId, extra);

const path = (url: string) => url.replace(t.config.appUrl, '');

describe('terms per account', () => {
  it('are set by admin staff only, audited with before and after; a desk user is refused and nothing changes', async () => {
    const account = await createApprovedAccount(t, admin);
    const refused = await t.gql(
      SetAccountBillingDocument,
      { accountId: account.id, terms: 'NET_15' as BillingTerms, creditLimitCents: 5000, purchaseOrderRequired: true },
      desk,
    );
    expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const bad = await t.gql(
      SetAccountBillingDocument,
      { accountId: account.id, terms: 'NET_15' as BillingTerms, creditLimitCents: -1, purchaseOrderRequired: true },
      admin,
    );
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0].extensions?.errors).toHaveProperty('creditLimitCents');
    const me = await t.rest.get('/api/v1/quotes', account.key).expect(200);
    expect(me.body.data).toEqual([]);

    const set = await t.gql(
      SetAccountBillingDocument,
      { accountId: account.id, terms: 'NET_15' as BillingTerms, creditLimitCents: 5000, purchaseOrderRequired: true },
      admin,
    );
    expect(set.data?.setAccountBilling).toEqual({
      id: account.id,
      billingTerms: 'NET_15',
      creditLimitCents: 5000,
      purchaseOrderRequired: true,
    });
    const audit = await t.gql(AuditLogDocument, { resourceId: account.id }, admin);
    const entry = audit.data!.auditLog.items.find((item) => item.action === 'account.set_billing');
    expect(entry?.details).toMatchObject({
      before: { terms: 'CHECKOUT', credit_limit_cents: 0, purchase_order_required: false },
      after: { terms: 'NET_15', credit_limit_cents: 5000, purchase_order_required: true },
    });
  });
});

describe('purchase orders', () => {
  it('are at most 64 characters, required when the account says so, and travel to the order on both doors', async () => {
    const { account, fileId } = await termsAccount(1_000_000, true);
    const long = await t.rest
      .post(
        '/api/v1/quotes',
        {
          source_language: 'de',
          target_language: 'en',
          service_type: 'standard',
          file_ids: [fileId],
          purchase_order: 'P'.repeat(65),
        },
        account.key,
      )
      .expect(422);
    expect(long.body.errors.purchase_order).toEqual([
      'The purchase order field must not be greater than 64 characters.',
    ]);
    const longGql = await t.gql(
      CreateQuoteWithPurchaseOrderDocument,
      { fileId, purchaseOrder: 'P'.repeat(65) },
      account.key,
    );
    expect(longGql.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(longGql.errors?.[0].extensions?.errors?.purchaseOrder).toEqual(long.body.errors.purchase_order);
    const missing = await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'de', target_language: 'en', service_type: 'standard', file_ids: [fileId] },
        account.key,
      )
      .expect(422);
    expect(missing.body.errors.purchase_order).toEqual(['The purchase order field is required for this account.']);
    const none = await t.gql(CreateQuoteWithPurchaseOrderDocument, { fileId }, account.key);
    expect(none.errors?.[0].extensions?.errors).toHaveProperty('purchaseOrder');
    expect((await t.rest.get('/api/v1/quotes', account.key).expect(200)).body.data).toEqual([]);

    const restQuote = await quote(account, fileId, { purchase_order: 'PO-4471' });
    expect(restQuote.purchase_order).toBe('PO-4471');
    const converted = await t.rest.post(`/api/v1/quotes/${restQuote.id}/convert`, undefined, account.key).expect(201);
    const order = (await t.rest.get(`/api/v1/orders/${converted.body.data.id}`, account.key).expect(200)).body.data;
    expect(order.purchase_order).toBe('PO-4471');

    const gqlQuote = await t.gql(CreateQuoteWithPurchaseOrderDocument, { fileId, purchaseOrder: 'PO-88' }, account.key);
    expect(gqlQuote.data?.createQuote.purchaseOrder).toBe('PO-88');
    const placed = await t.gql(
      ConvertOnAccountDocument,
      { id: gqlQuote.data!.createQuote.id, onAccount: true },
      account.key,
    );
    expect(placed.data?.convertQuote.order).toMatchObject({ purchaseOrder: 'PO-88', reference: 'Matter 7' });
  });

  it('a text that shows nothing is no purchase order, and a quote from before the requirement does not convert', async () => {
    const { account, fileId } = await termsAccount();
    const before = await quote(account, fileId);
    const gqlBefore = await quote(account, fileId);
    const invisible = await quote(account, fileId, { purchase_order: '\u200b' });
    expect(invisible.purchase_order).toBe('');
    await t.gql(
      SetAccountBillingDocument,
      {
        accountId: account.id,
        terms: 'NET_30' as BillingTerms,
        creditLimitCents: 1_000_000,
        purchaseOrderRequired: true,
      },
      admin,
    );
    const refused = ['The purchase order field is required for this account: ask for a new quote with one.'];
    for (const id of [before.id, invisible.id]) {
      const converted = await t.rest.post(`/api/v1/quotes/${id}/convert`, undefined, account.key).expect(422);
      expect(converted.body.errors).toEqual({ purchase_order: refused });
    }
    const placed = await t.gql(ConvertOnAccountDocument, { id: gqlBefore.id, onAccount: true }, account.key);
    expect(placed.errors?.[0].extensions?.errors).toEqual({ purchaseOrder: refused });
    const blank = await t.rest
      .post(
        '/api/v1/quotes',
        {
          source_language: 'de',
          target_language: 'en',
          service_type: 'standard',
          file_ids: [fileId],
          purchase_order: ' \u200b\u200e ',
        },
        account.key,
      )
      .expect(422);
    expect(blank.body.errors.purchase_order).toEqual(['The purchase order field is required for this account.']);
    expect((await t.rest.get('/api/v1/orders', account.key).expect(200)).body.data).toEqual([]);
  });

  it('a purchase order or matter printed on invoices takes no text-direction override, on both doors', async () => {
    const { account, fileId } = await termsAccount();
    const base = { source_language: 'de', target_language: 'en', service_type: 'standard', file_ids: [fileId] };
    const spoofed = { purchase_order: 'PO-\u202E4411', reference: 'Matter \u2066R\u2069' };
    const rest = await t.rest.post('/api/v1/quotes', { ...base, ...spoofed }, account.key).expect(422);
    const refused = (field: string) => [`The ${field} field must not contain text-direction control characters.`];
    expect(rest.body.errors).toEqual({ purchase_order: refused('purchase order'), reference: refused('reference') });
    const graphql = await t.gql(
      CreateQuoteWithPurchaseOrderDocument,
      { fileId, purchaseOrder: spoofed.purchase_order },
      account.key,
    );
    expect(graphql.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { purchaseOrder: refused('purchase order') },
    });
    // A direction mark, which only says how neutral characters lean, stays allowed.
    const marked = await t.rest
      .post('/api/v1/quotes', { ...base, purchase_order: 'PO-44\u200F' }, account.key)
      .expect(201);
    expect(marked.body.data.purchase_order).toBe('PO-44\u200F');
  });
});

describe('the contract flow on terms', () => {
  it('a contract-literal client converts, sends the person to the URL, polls, and sees the order completed', async () => {
    const { account, fileId } = await termsAccount();
    const { id: quoteId } = await quote(account, fileId);
    const converted = await t.rest.post(`/api/v1/quotes/${quoteId}/convert`, undefined, account.key).expect(201);
    expect(converted.body.data.status).toBe('pending_payment');
    const url = converted.body.provider_approval_url as string;
    expect(url).toMatch(new RegExp(`^${t.config.appUrl}/api/v1/on-account/ACC-`));

    const page = await t.rest.raw().get(path(url)).expect(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.text).toContain('>Place order on account</button>');
    expect(page.text).not.toMatch(/<(script|link|img)\b/);

    // A form posted from another site's page places nothing.
    await t.rest
      .raw()
      .post(`${path(url)}/place`)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({})
      .expect(403);
    expect((await t.rest.get(`/api/v1/orders/${converted.body.data.id}`, account.key)).body.data.status).toBe(
      'pending_payment',
    );

    const placed = await t.rest
      .raw()
      .post(`${path(url)}/place`)
      .set('Origin', t.config.appUrl)
      .type('form')
      .send({});
    expect(placed.status).toBe(200);
    expect(placed.text).toContain('Placed on account');
    const order = await waitForStatus(t, account, converted.body.data.id, 'completed');
    expect(order.payment).toMatchObject({ provider: 'account', refunded_cents: 0 });
    expect(order.payment.paid_at).not.toBeNull();
    // Told it is on account, not sent a receipt for a payment that never happened.
    const mail = await t.gql(SentEmailsDocument, { to: account.email }, admin);
    const kinds = mail.data!.sentEmails.items.map((item) => item.kind);
    expect(kinds).toContain('placed_on_account');
    expect(kinds).not.toContain('payment_receipt');
    // Placed once: the button again changes nothing.
    const again = await t.rest.raw().get(path(url)).expect(200);
    expect(again.text).not.toContain('>Place order on account</button>');
  });

  it('GraphQL places at once with onAccount; an account without terms is refused under terms and nothing is made', async () => {
    const { account, fileId } = await termsAccount();
    const { id } = await quote(account, fileId);
    const placed = await t.gql(ConvertOnAccountDocument, { id, onAccount: true }, account.key);
    expect(placed.data?.convertQuote.order).toMatchObject({ status: 'PROCESSING', payment: { provider: 'account' } });

    const checkout = await createApprovedAccount(t, admin);
    const file = (await uploadFile(t, checkout.key, await docx({ paragraphs: [words(50)] }), 'a.docx')).id;
    const other = await quote(checkout, file);
    const refused = await t.gql(ConvertOnAccountDocument, { id: other.id, onAccount: true }, checkout.key);
    expect(refused.errors?.[0].extensions?.errors).toHaveProperty('terms');
    expect((await t.rest.get('/api/v1/orders', checkout.key).expect(200)).body.data).toEqual([]);
  });

  it('past the credit limit the page explains and offers the card; GraphQL is 422 under terms', async () => {
    const { account, fileId } = await termsAccount(100);
    const { id: quoteId, total_cents } = await quote(account, fileId);
    expect(total_cents).toBeGreaterThan(100);
    const refused = await t.gql(ConvertOnAccountDocument, { id: quoteId, onAccount: true }, account.key);
    expect(refused.errors?.[0].extensions?.errors?.terms?.[0]).toContain('credit limit');
    expect((await t.rest.get('/api/v1/orders', account.key).expect(200)).body.data).toEqual([]);

    const converted = await t.rest.post(`/api/v1/quotes/${quoteId}/convert`, undefined, account.key).expect(201);
    const url = path(converted.body.provider_approval_url);
    const page = await t.rest.raw().get(url).expect(200);
    expect(page.text).toContain('credit limit');
    expect(page.text).not.toContain('>Place order on account</button>');
    expect(page.text).toContain('>Pay by card instead</button>');
    await t.rest.raw().post(`${url}/place`).type('form').send({}).expect(422);

    const card = await t.rest.raw().post(`${url}/card`).type('form').send({}).expect(303);
    expect(card.headers.location).toContain('/api/v1/sandbox/checkout/');
    await t.rest
      .raw()
      .post(`${path(card.headers.location)}/pay`)
      .type('form')
      .send({})
      .expect(200);
    const order = await waitForStatus(t, account, converted.body.data.id, ['processing', 'completed']);
    expect(order.payment.provider).toBe('sandbox');
  });

  it('two conversions at once that together pass the limit place at most what fits', async () => {
    const { account, fileId } = await termsAccount(1);
    const quotes = [await quote(account, fileId), await quote(account, fileId), await quote(account, fileId)];
    // Room for exactly two of the three.
    await t.gql(
      SetAccountBillingDocument,
      {
        accountId: account.id,
        terms: 'NET_30' as BillingTerms,
        creditLimitCents: quotes[0].total_cents * 2 + quotes[0].total_cents - 1,
        purchaseOrderRequired: false,
      },
      admin,
    );
    const answers = await Promise.all(
      quotes.map(({ id }) => t.gql(ConvertOnAccountDocument, { id, onAccount: true }, account.key)),
    );
    const placed = answers.filter((answer) => answer.data?.convertQuote.order.status === 'PROCESSING');
    const refused = answers.filter((answer) => answer.errors?.[0].extensions?.errors?.terms);
    expect(placed).toHaveLength(2);
    expect(refused).toHaveLength(1);
    // The refused conversion made nothing: two orders, and its quote still priced, as it was.
    const orders = (await t.rest.get('/api/v1/orders', account.key).expect(200)).body.data as { id: string }[];
    expect(orders.map((order) => order.id).sort()).toEqual(
      placed.map((answer) => answer.data!.convertQuote.order.id).sort(),
    );
    const refusedQuote = quotes[answers.indexOf(refused[0])];
    const left = (await t.rest.get(`/api/v1/quotes/${refusedQuote.id}`, account.key).expect(200)).body.data;
    expect(left.status).toBe('priced');
    const [{ count }] = await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT count(*)::int AS count FROM orders WHERE quote_id = ?`, [refusedQuote.id]);
    expect(count).toBe(0);
  });
});

describe('a viewer of a terms account', () => {
  /** What a refused call must leave as it was: the account's orders, payments and invoices, and the audit rows. */
  const books = async (accountId: string, viewerId: string, ids: string[]) => {
    const [row] = await t.orm.em
      .fork()
      .getConnection()
      .execute(
        `SELECT (SELECT count(*)::int FROM orders WHERE account_id = ?) AS orders,
                (SELECT count(*)::int FROM payments p LEFT JOIN orders o ON o.id = p.order_id
                   LEFT JOIN interpretation_bookings b ON b.id = p.booking_id
                  WHERE coalesce(o.account_id, b.account_id) = ?) AS payments,
                (SELECT json_agg(json_build_object('status', status, 'paid', paid_cents) ORDER BY id)
                   FROM invoices WHERE account_id = ?) AS invoices,
                (SELECT count(*)::int FROM audit_entries
                  WHERE actor_id = ? OR resource_id = ANY(?::text[])) AS audits`,
        [accountId, accountId, accountId, viewerId, `{${ids.join(',')}}`],
      );
    return row as { orders: number; payments: number; invoices: unknown[]; audits: number };
  };

  it('records nothing: converting on account on both doors and the staff operations on invoices are refused', async () => {
    const { account, fileId } = await termsAccount();
    const viewer = await memberSession(t, admin, await signInAs(t, admin, account.email), 'VIEWER');
    const placed = await quote(account, fileId);
    expect(
      (await t.gql(ConvertOnAccountDocument, { id: placed.id, onAccount: true }, account.key)).data?.convertQuote.order
        .status,
    ).toBe('PROCESSING');
    const invoice = (await t.gql(CloseInvoicesDocument, { accountId: account.id }, admin)).data!.closeInvoices!;
    const { id: quoteId } = await quote(account, fileId);
    const before = await books(account.id, viewer.id, [quoteId, invoice.id, account.id]);
    expect(before).toMatchObject({ orders: 1, payments: 1, invoices: [{ status: 'open', paid: 0 }] });

    const converted = await t.gql(ConvertOnAccountDocument, { id: quoteId, onAccount: true }, viewer.session);
    expect(converted.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    await t.rest.post(`/api/v1/quotes/${quoteId}/convert`, undefined, viewer.session).expect(403);
    const staffOps = [
      await t.gql(RecordInvoicePaymentDocument, { id: invoice.id, amountCents: 1, method: 'wire' }, viewer.session),
      await t.gql(VoidInvoiceDocument, { id: invoice.id, reason: 'Not ours' }, viewer.session),
      await t.gql(CloseInvoicesDocument, { accountId: account.id }, viewer.session),
    ];
    for (const answer of staffOps) expect(answer.errors?.[0].extensions?.code).toBe('FORBIDDEN');

    expect(await books(account.id, viewer.id, [quoteId, invoice.id, account.id])).toEqual(before);
    expect((await t.rest.get(`/api/v1/quotes/${quoteId}`, account.key).expect(200)).body.data.status).toBe('priced');
  });
});
