import {
  AuditLogDocument,
  ConfirmInterpretationAvailabilityDocument,
  RenewCheckoutDocument,
  SentEmailsDocument,
} from '../graphql/generated';
import { passStart } from '../helpers/bookings';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken } from '../helpers/fixtures';
import { startPayPalApp, type PayPalApp, type PayPalStandIn } from '../helpers/paypal-app';
import { sleep } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D29: a lost checkout is issued again for an unpaid order or booking; the old one stops paying, and money is taken once. */
const ROUNDS = 8;

/** One deployment (sandbox or PayPal) with a client ready to order and book. */
/** Two approved accounts on `t`, the first with a file to quote. */
async function deployment(t: TestApp) {
  const staff = await createStaffToken(t);
  const alice = await createApprovedAccount(t, staff);
  const bob = await createApprovedAccount(t, staff);
  const fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(400)] }), 'contract.docx')).id;
  return { t, staff, alice, bob, fileId };
}
type Deployment = Awaited<ReturnType<typeof deployment>>;

async function convertOrder({ t, alice, fileId }: Deployment, body?: object) {
  const quote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [fileId] },
        alice.key,
      )
      .expect(201)
  ).body.data;
  const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, body, alice.key).expect(201)).body;
  return {
    id: converted.data.id as string,
    number: converted.data.number as string,
    approvalUrl: converted.provider_approval_url as string,
  };
}
const renewOrder = ({ t, alice }: Deployment, id: string, body?: object, key = alice.key) =>
  t.rest.post(`/api/v1/orders/${id}/checkout`, body, key);
const order = async ({ t, alice }: Deployment, id: string) =>
  (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
const sandboxPay = ({ t }: Deployment, approvalUrl: string) =>
  t.rest
    .raw()
    .post(`${approvalUrl.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({});
/** Every payment ever made for an order or booking (a renewal leaves the old ones behind, voided), by its number. */
const paymentsOf = ({ t }: Deployment, number: string) =>
  t.orm.em
    .fork()
    .getConnection()
    .execute<{ status: string; amount_cents: number; captured_cents: number; refunded_cents: number }[]>(
      `SELECT status, amount_cents, captured_cents, refunded_cents FROM payments WHERE description LIKE ? ORDER BY created_at`,
      [`% ${number}`],
    );

/** A booking staff confirmed, waiting for payment at its checkout. */
async function awaitingBooking({ t, staff, alice }: Deployment) {
  const scheduledAt = new Date(Date.now() + 24 * 3600_000).toISOString();
  const id = (
    await t.rest
      .post(
        '/api/v1/interpretation-bookings',
        {
          source_language: 'es',
          target_language: 'en',
          mode: 'video_remote',
          scheduled_at: scheduledAt,
          duration_hours: 2,
        },
        alice.key,
      )
      .expect(201)
  ).body.data.id as string;
  const confirmed = await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, staff);
  expect(confirmed.errors).toBeUndefined();
  const booking = (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
  return { id, number: booking.number as string, approvalUrl: booking.payment.approval_url as string };
}

describe('renewing a checkout in the sandbox', () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deployment(await startTestApp());
  });
  afterAll(() => d.t.close());

  it('voids the old checkout of an order and pays through the new one, back to the same redirect', async () => {
    const { t, staff } = d;
    const { id, number, approvalUrl } = await convertOrder(d, { redirect_url: 'https://portal.example.test/back' });
    const res = await renewOrder(d, id).expect(200);
    const renewed = res.body.provider_approval_url as string;
    expect(renewed).not.toBe(approvalUrl);
    expect(res.body.data).toMatchObject({
      id,
      status: 'pending_payment',
      payment: { approval_url: renewed, paid_at: null },
    });

    const old = (await t.rest.raw().get(approvalUrl.replace(t.config.appUrl, '')).expect(200)).text;
    expect(old).toContain('replaced by a newer one, and can no longer be paid');
    expect(old).not.toContain('action="');
    expect((await sandboxPay(d, approvalUrl).expect(409)).text).toContain('This checkout can no longer be paid.');

    const paid = await sandboxPay(d, renewed).expect(303);
    expect(paid.headers.location).toBe(`https://portal.example.test/back?payment=paid&order_id=${id}`);
    expect((await order(d, id)).status).not.toBe('pending_payment');
    expect((await paymentsOf(d, number)).map((p) => p.status)).toEqual(['voided', 'captured']);
    const audit = await t.gql(AuditLogDocument, { resourceId: id }, staff);
    expect(audit.data!.auditLog.items.filter((entry) => entry.action === 'order.checkout_renewed')).toHaveLength(1);
  });

  it('takes a new redirect_url, and renews again and again', async () => {
    const { id, number } = await convertOrder(d);
    await renewOrder(d, id).expect(200);
    const last = (await renewOrder(d, id, { redirect_url: 'https://portal.example.test/again' }).expect(200)).body
      .provider_approval_url;
    expect((await sandboxPay(d, last).expect(303)).headers.location).toBe(
      `https://portal.example.test/again?payment=paid&order_id=${id}`,
    );
    expect((await paymentsOf(d, number)).map((p) => p.status)).toEqual(['voided', 'voided', 'captured']);
  });

  it('renews a booking on both doors; the old link stops paying', async () => {
    const { t, alice } = d;
    const { id, approvalUrl } = await awaitingBooking(d);
    const rest = await t.rest.post(`/api/v1/interpretation-bookings/${id}/checkout`, {}, alice.key).expect(200);
    expect(rest.body.data).toMatchObject({
      id,
      status: 'awaiting_payment',
      payment: { approval_url: rest.body.provider_approval_url },
    });
    const gql = await t.gql(RenewCheckoutDocument, { bookingId: id }, alice.key);
    expect(gql.errors).toBeUndefined();
    const { approvalUrl: latest, interpretationBooking, order: none } = gql.data!.renewCheckout;
    expect({ booking: interpretationBooking!.payment.approvalUrl, none }).toEqual({ booking: latest, none: null });
    for (const stale of [approvalUrl, rest.body.provider_approval_url]) await sandboxPay(d, stale).expect(409);
    await sandboxPay(d, latest).expect(200);
    expect((await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data.status).toBe(
      'confirmed',
    );
  });

  it('renews an order on GraphQL', async () => {
    const { t, alice } = d;
    const { id } = await convertOrder(d);
    const gql = await t.gql(
      RenewCheckoutDocument,
      { orderId: id, redirectUrl: 'https://portal.example.test/gql' },
      alice.key,
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data!.renewCheckout).toMatchObject({
      order: { id, status: 'PENDING_PAYMENT', payment: { approvalUrl: gql.data!.renewCheckout.approvalUrl } },
      interpretationBooking: null,
    });
  });

  it('refuses what cannot be renewed, in the documented shape on both doors, changing nothing', async () => {
    const { t, alice, bob } = d;
    const paid = await convertOrder(d);
    await sandboxPay(d, paid.approvalUrl).expect(200);
    const cancelled = await convertOrder(d);
    await t.rest.post(`/api/v1/orders/${cancelled.id}/cancel`, undefined, alice.key).expect(200);
    const open = await convertOrder(d);
    const requested = (
      await t.rest
        .post(
          '/api/v1/interpretation-bookings',
          {
            source_language: 'es',
            target_language: 'en',
            mode: 'asl',
            scheduled_at: '2031-01-01T10:00:00Z',
            duration_hours: 2,
          },
          alice.key,
        )
        .expect(201)
    ).body.data.id;
    const before = await paymentsOf(d, open.number);

    const refusals: [
      string,
      { orderId?: string; bookingId?: string; redirectUrl?: string },
      number,
      Record<string, string[]>,
    ][] = [
      [
        `/orders/${paid.id}/checkout`,
        { orderId: paid.id },
        422,
        {
          status: [expect.stringMatching(/^Cannot renew the checkout while the status is (processing|completed)\.$/)],
        },
      ],
      [
        `/orders/${cancelled.id}/checkout`,
        { orderId: cancelled.id },
        422,
        { status: ['Cannot renew the checkout while the status is cancelled.'] },
      ],
      [
        `/interpretation-bookings/${requested}/checkout`,
        { bookingId: requested },
        422,
        { status: ['Cannot renew the checkout while the status is requested.'] },
      ],
    ];
    for (const [path, args, code, errors] of refusals) {
      const rest = await t.rest.post(`/api/v1${path}`, undefined, alice.key).expect(code);
      expect(rest.body).toEqual({ message: expect.any(String), errors });
      const gql = await t.gql(RenewCheckoutDocument, args, alice.key);
      expect(gql.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors });
    }
    // Another account's order, an unknown id and a malformed one: 404, as if it did not exist.
    for (const id of [open.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      expect((await renewOrder(d, id, undefined, bob.key).expect(404)).body).toEqual({ message: 'Not found.' });
      expect((await t.gql(RenewCheckoutDocument, { orderId: id }, bob.key)).errors![0].extensions!.code).toBe(
        'NOT_FOUND',
      );
    }
    expect((await renewOrder(d, open.id, { redirect_url: 'ftp://nope' }).expect(422)).body.errors).toEqual({
      redirect_url: [expect.any(String)],
    });
    expect(
      (await t.gql(RenewCheckoutDocument, { orderId: open.id, redirectUrl: 'ftp://nope' }, alice.key)).errors![0]
        .extensions!.errors,
    ).toEqual({ redirectUrl: [expect.any(String)] });
    for (const args of [{}, { orderId: open.id, bookingId: requested }]) {
      expect((await t.gql(RenewCheckoutDocument, args, alice.key)).errors![0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        errors: { orderId: ['Give exactly one of orderId and bookingId.'] },
      });
    }
    expect(await paymentsOf(d, open.number)).toEqual(before);
  });

  it(`never takes a payment twice when it races the renewal (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { id, number, approvalUrl } = await convertOrder(d);
      const [renewal, paid] = await Promise.all([renewOrder(d, id), sandboxPay(d, approvalUrl)]);
      if (paid.status === 200)
        expect({ round, renewal: renewal.status, errors: renewal.body.errors }).toEqual({
          round,
          renewal: 422,
          errors: { status: [expect.any(String)] },
        });
      else expect({ round, renewal: renewal.status, paid: paid.status }).toEqual({ round, renewal: 200, paid: 409 });
      // Whoever lost, the client can still pay, once.
      if (renewal.status === 200) await sandboxPay(d, renewal.body.provider_approval_url).expect(200);
      const payments = await paymentsOf(d, number);
      const captured = payments.filter((p) => p.captured_cents > 0);
      expect({ round, captured: captured.map((p) => [p.status, p.captured_cents, p.refunded_cents]) }).toEqual({
        round,
        captured: [['captured', payments[0].amount_cents, 0]],
      });
      expect({ round, status: (await order(d, id)).status }).not.toEqual({ round, status: 'pending_payment' });
    }
  });
});

describe('PayPal: renewals, and bookings in time (D9, D26, D29)', () => {
  let app: PayPalApp;
  let paypal: PayPalStandIn;
  let d: Deployment;
  beforeAll(async () => {
    app = await startPayPalApp();
    paypal = app.paypal;
    d = await deployment(app.t);
  });
  afterAll(() => app.close());
  afterEach(() => Object.assign(paypal.mode, { captureDelayMs: 0, onCapture: undefined }));

  const paypalId = (approvalUrl: string) => new URL(approvalUrl).searchParams.get('token')!;
  const returnFrom = (token: string) =>
    d.t.rest.raw().get(`/api/v1/payments/paypal/return?token=${token}&PayerID=PAYER1`);
  const approvedEvent = (token: string) => ({
    id: `WH-${Math.random().toString(36).slice(2)}`,
    event_type: 'CHECKOUT.ORDER.APPROVED',
    resource: { id: token, status: 'APPROVED' },
  });
  const captures = () => paypal.calls.filter((call) => /\/capture$/.test(call)).length;

  it(`captures once when the payer's return races the renewal (${ROUNDS} rounds), and a late approval changes nothing`, async () => {
    paypal.mode.captureDelayMs = 30;
    for (let round = 0; round < ROUNDS; round++) {
      const { id, number, approvalUrl } = await convertOrder(d);
      const old = paypalId(approvalUrl);
      paypal.approve(old);
      // The renewal asks PayPal for its new checkout before it locks anything: the payer comes back a little later
      // in some rounds, so both orders of arrival are played.
      const [renewal, back] = await Promise.all([
        renewOrder(d, id),
        sleep((round % 4) * 15).then(() => returnFrom(old)),
      ]);
      if (renewal.status === 200) {
        // The renewal came first: the old checkout no longer pays (nothing is captured), whatever PayPal says of it.
        expect({ round, back: back.status, text: back.text }).toEqual({
          round,
          back: 200,
          text: expect.stringContaining('nothing was charged'),
        });
        expect({ round, captured: paypal.orders.get(old)!.status }).toEqual({ round, captured: 'APPROVED' });
        const before = captures();
        const late = approvedEvent(old);
        expect(
          (
            await d.t.rest
              .raw()
              .post('/api/v1/payments/paypal/webhook')
              .set(paypal.signedHeaders(late))
              .send(late)
              .expect(200)
          ).body.status,
        ).toBe('handled');
        expect(captures()).toBe(before);
        const fresh = paypalId(renewal.body.provider_approval_url);
        paypal.approve(fresh);
        await returnFrom(fresh);
      } else {
        expect({ round, renewal: renewal.status, errors: Object.keys(renewal.body.errors) }).toEqual({
          round,
          renewal: 422,
          errors: ['status'],
        });
      }
      const payments = await paymentsOf(d, number);
      const captured = payments.filter((p) => p.captured_cents > 0);
      expect({ round, captured: captured.map((p) => [p.status, p.captured_cents, p.refunded_cents]) }).toEqual({
        round,
        captured: [['captured', payments[0].amount_cents, 0]],
      });
      expect({ round, status: (await order(d, id)).status }).not.toEqual({ round, status: 'pending_payment' });
    }
  });

  it(`has one winner when the expiry sweep races the payer's return (${ROUNDS} rounds): paid and kept, or cancelled and never captured`, async () => {
    const { t, alice } = d;
    for (let round = 0; round < ROUNDS; round++) {
      paypal.mode.captureDelayMs = (round % 2) * 40;
      const { id, number, approvalUrl } = await awaitingBooking(d);
      const token = paypalId(approvalUrl);
      paypal.approve(token);
      // The sweep believes the start has passed while the payer still sees a future booking: they meet on the locks.
      await Promise.all([
        returnFrom(token),
        sleep((round % 3) * 10).then(() =>
          t.services.bookings.expireStarted(t.orm.em.fork(), new Date(Date.now() + 48 * 3600_000)),
        ),
      ]);
      const booking = (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
      const [payment] = await paymentsOf(d, number);
      const atPayPal = paypal.orders.get(token)!;
      if (booking.status === 'confirmed') {
        expect({ round, payment, atPayPal: atPayPal.status }).toEqual({
          round,
          payment: {
            status: 'captured',
            amount_cents: booking.total_cents,
            captured_cents: booking.total_cents,
            refunded_cents: 0,
          },
          atPayPal: 'COMPLETED',
        });
      } else {
        expect({ round, status: booking.status, payment, atPayPal: atPayPal.status }).toEqual({
          round,
          status: 'cancelled',
          payment: { status: 'voided', amount_cents: booking.total_cents, captured_cents: 0, refunded_cents: 0 },
          atPayPal: 'APPROVED',
        });
      }
    }
  });

  it('takes no money on a return or an approval webhook that arrives after the start, and says why', async () => {
    const { t, alice } = d;
    const { id, number, approvalUrl } = await awaitingBooking(d);
    const token = paypalId(approvalUrl);
    paypal.approve(token);
    await passStart(t, id);
    const before = captures();
    const back = await returnFrom(token).expect(200);
    expect(back.text).toMatch(/The booking&#39;s start \(.+\) has passed: it can no longer be paid\./);
    const late = approvedEvent(token);
    expect(
      (
        await t.rest
          .raw()
          .post('/api/v1/payments/paypal/webhook')
          .set(paypal.signedHeaders(late))
          .send(late)
          .expect(200)
      ).body.status,
    ).toBe('handled');
    expect(captures()).toBe(before);
    expect((await paymentsOf(d, number))[0]).toMatchObject({ status: 'created', captured_cents: 0 });
    expect(
      (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data.payment.paid_at,
    ).toBeNull();
  });

  it('refunds a capture that lands on a replaced checkout anyway, and tells the client why', async () => {
    const { t, staff, alice } = d;
    const { id, number, approvalUrl } = await convertOrder(d);
    const old = paypalId(approvalUrl);
    await renewOrder(d, id).expect(200);
    // PayPal captured the old checkout after all (the payer finished on a page opened before the renewal).
    Object.assign(paypal.orders.get(old)!, { status: 'COMPLETED', captureId: `CAP${old}` });
    const event = {
      id: `WH-${Math.random().toString(36).slice(2)}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: `CAP${old}`, status: 'COMPLETED', supplementary_data: { related_ids: { order_id: old } } },
    };
    await t.rest.raw().post('/api/v1/payments/paypal/webhook').set(paypal.signedHeaders(event)).send(event).expect(200);

    const [replaced, current] = await paymentsOf(d, number);
    expect(replaced).toMatchObject({ status: 'refunded', refunded_cents: replaced.amount_cents });
    expect(current).toMatchObject({ status: 'created', captured_cents: 0 });
    expect(paypal.refundedCents(`CAP${old}`)).toBe(replaced.amount_cents);
    expect((await order(d, id)).status).toBe('pending_payment');
    const mails = (await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, staff)).data!.sentEmails.items;
    const refunded = mails.filter((m) => m.kind === 'payment_refunded' && m.subject.includes(number));
    expect(refunded).toHaveLength(1);
    expect(refunded[0].text).toMatch(/arrived too late: a newer checkout had replaced the one it was made on\./);
  });

  it('refunds at once a booking payment captured after the start, tells the client, and the sweep then cancels it', async () => {
    const { t, staff, alice } = d;
    const { id, number, approvalUrl } = await awaitingBooking(d);
    const token = paypalId(approvalUrl);
    paypal.approve(token);
    // The capture is made at PayPal; before its answer arrives, the start passes.
    let started: Promise<void> | undefined;
    Object.assign(paypal.mode, { captureDelayMs: 400, onCapture: () => (started = passStart(t, id)) });
    const back = await returnFrom(token);
    await started;
    expect(back.status).toBe(200);
    // Not confirmed: still waiting (until the sweep, which may already have run, cancels it), the money on its way back.
    const booking = (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
    expect(booking).toMatchObject({
      status: expect.stringMatching(/^(awaiting_payment|cancelled)$/),
      payment: { paid_at: expect.stringMatching(/Z$/), refunded_at: expect.stringMatching(/Z$/) },
    });
    const [payment] = await paymentsOf(d, number);
    expect(payment).toEqual({
      status: 'refunded',
      amount_cents: booking.total_cents,
      captured_cents: booking.total_cents,
      refunded_cents: booking.total_cents,
    });
    expect(paypal.refundedCents(paypal.orders.get(token)!.captureId!)).toBe(booking.total_cents);

    const mails = (await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, staff)).data!.sentEmails.items;
    const refunded = mails.filter((m) => m.kind === 'payment_refunded' && m.subject.includes(number));
    expect(refunded).toHaveLength(1);
    expect(refunded[0].text).toMatch(
      /arrived too late: The booking's start \(.+\) has passed: it can no longer be paid\. We are refunding it in full/,
    );
    expect(mails.filter((m) => m.kind === 'payment_receipt' && m.subject.includes(number))).toHaveLength(0);

    await t.services.bookings.expireStarted(t.orm.em.fork());
    expect((await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data.status).toBe(
      'cancelled',
    );
    expect((await paymentsOf(d, number))[0]).toEqual(payment);
  });
});
