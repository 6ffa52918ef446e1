import { ConfirmInterpretationAvailabilityDocument } from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { unpaidOrder } from '../helpers/orders';
import { startPayPalApp, type PayPalStandIn } from '../helpers/paypal-app';
import type { StandInOrder } from '../helpers/paypal-stand-in';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D26 under real concurrency: for many rounds, cancel, the return link, the webhooks and the sandbox Pay button
 * hit one order or booking at the same instant. After each round: no 5xx, never both a cancel and a payment
 * that stuck, and the money reconciles (captured = kept + refunded) in the database and at the provider.
 */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 20);

type Provider = 'sandbox' | 'paypal';
type Subject = 'order' | 'booking';

interface Target {
  /** REST path of the order or booking. */
  path: string;
  providerOrderId: string;
  approvalUrl: string;
}

interface PaymentRow {
  status: string;
  amount_cents: number;
  captured_cents: number;
  refunded_cents: number;
  capture_id: string | null;
}

describe.each<Provider>(['sandbox', 'paypal'])('payments racing cancels, %s provider', (provider) => {
  let t: TestApp;
  let paypal: PayPalStandIn | undefined;
  let close: () => Promise<void>;
  let staff: string;
  let alice: TestAccount;
  let fileId: string;
  let webhookSeq = 0;

  beforeAll(async () => {
    // No job workers: a paid order must stay `processing` for the round's checks, not move on to be translated.
    if (provider === 'paypal') ({ t, paypal, close } = await startPayPalApp({ workers: false }));
    else {
      t = await startTestApp({ workers: false });
      close = () => t.close();
    }
    staff = await createStaffToken(t);
    alice = await createApprovedAccount(t, staff);
    fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(500)] }), 'race.docx')).id;
  });
  afterAll(() => close());

  const newTarget = async (subject: Subject): Promise<Target> => {
    if (subject === 'order') {
      const { id } = await unpaidOrder(t, alice, [fileId], 'standard', { source_language: 'de' });
      const order = (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
      return {
        path: `/api/v1/orders/${order.id}`,
        providerOrderId: order.payment.provider_order_id,
        approvalUrl: order.payment.approval_url,
      };
    }
    const body = {
      source_language: 'es',
      target_language: 'en',
      mode: 'video_remote',
      scheduled_at: '2031-03-01T09:00:00Z',
      duration_hours: 2,
    };
    const booking = (await t.rest.post('/api/v1/interpretation-bookings', body, alice.key).expect(201)).body.data;
    expect(
      (await t.gql(ConfirmInterpretationAvailabilityDocument, { id: booking.id, interpreterName: 'Ana Ruiz' }, staff))
        .errors,
    ).toBeUndefined();
    const payment = (await t.rest.get(`/api/v1/interpretation-bookings/${booking.id}`, alice.key).expect(200)).body.data
      .payment;
    return {
      path: `/api/v1/interpretation-bookings/${booking.id}`,
      providerOrderId: payment.provider_order_id,
      approvalUrl: payment.approval_url,
    };
  };

  const signedWebhook = (event: { id: string } & Record<string, unknown>) =>
    t.rest.raw().post('/api/v1/payments/paypal/webhook').set(paypal!.signedHeaders(event)).send(event);
  const approvedWebhook = (id: string) =>
    signedWebhook({
      id: `WH-RACE-${++webhookSeq}`,
      event_type: 'CHECKOUT.ORDER.APPROVED',
      resource: { id, status: 'APPROVED' },
    });
  const capturedWebhook = (order: StandInOrder) =>
    signedWebhook({
      id: `WH-RACE-${++webhookSeq}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: order.captureId,
        status: 'COMPLETED',
        supplementary_data: { related_ids: { order_id: order.id } },
      },
    });
  const paymentRow = async (providerOrderId: string): Promise<PaymentRow> =>
    (
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`SELECT * FROM payments WHERE provider_order_id = ?`, [providerOrderId])
    )[0] as PaymentRow;

  /**
   * Every way a payment is confirmed, and the client's cancel, all sent at once; the cancel leaves a little later
   * in some rounds so that over the rounds each side gets to win, and to arrive in the middle of a capture.
   */
  const race = async (target: Target, cancelDelayMs: number) => {
    const sendCancel = () =>
      t.rest
        .raw()
        .post(`${target.path}/cancel`)
        .set('Authorization', `Bearer ${alice.key}`)
        .then((res) => res);
    const cancel = cancelDelayMs
      ? new Promise((resolve) => setTimeout(resolve, cancelDelayMs)).then(sendCancel)
      : sendCancel();
    const back = t.rest
      .raw()
      .get(`/api/v1/payments/${provider}/return?token=${encodeURIComponent(target.providerOrderId)}`);
    const others =
      provider === 'sandbox'
        ? [0, 1].map(() =>
            t.rest
              .raw()
              .post(`${target.approvalUrl.replace(t.config.appUrl, '')}/pay`)
              .type('form')
              .send({}),
          )
        : [approvedWebhook(target.providerOrderId), approvedWebhook(target.providerOrderId)];
    return Promise.all([cancel, back, ...others].map((request) => request.then((res) => res)));
  };

  it.each<Subject>(['order', 'booking'])(
    `never both cancels and keeps the money of a %s (${ROUNDS} rounds)`,
    async (subject) => {
      for (let round = 0; round < ROUNDS; round++) {
        const target = await newTarget(subject);
        const lateWebhooks: Promise<unknown>[] = [];
        let declined = false;
        if (paypal) {
          // Vary the provider: a slow capture, a capture whose answer is lost, a declined card.
          Object.assign(paypal.mode, {
            captureDelayMs: round % 3 === 1 ? 150 : 0,
            loseCaptureAnswer: round % 4 === 3,
            declineCapture: round % 5 === 4,
          });
          declined = paypal.mode.declineCapture;
          paypal.mode.onCapture = (order) =>
            void lateWebhooks.push(capturedWebhook(order).then((res) => expect(res.status).toBeLessThan(500)));
          paypal.approve(target.providerOrderId);
        }

        const answers = await race(target, [0, 0, 10, 40][round % 4]);
        await Promise.all(lateWebhooks);
        // A capture whose answer was lost is asked again, as the workers' periodic reconciliation does.
        await t.services.payments.reconcile(t.orm.em.fork());

        for (const answer of answers) expect(answer.status).toBeLessThan(500);
        const [cancelAnswer] = answers;
        const final = (await t.rest.get(target.path, alice.key).expect(200)).body.data;
        const payment = await paymentRow(target.providerOrderId);
        const paidState = subject === 'order' ? 'processing' : 'confirmed';
        const waiting = subject === 'order' ? 'pending_payment' : 'awaiting_payment';

        if (final.status === 'cancelled') {
          expect(cancelAnswer.status).toBe(200);
          expect(payment.status).toMatch(/^(voided|refunded)$/);
        } else if (final.status === paidState) {
          expect(cancelAnswer.status).toBe(422);
          expect(payment.status).toBe('captured');
        } else {
          // Only a declined capture leaves it waiting: the cancel lost to the capture attempt, which then failed.
          expect({
            round,
            declined,
            status: final.status,
            cancel: cancelAnswer.status,
            payment: payment.status,
          }).toEqual({
            round,
            declined: true,
            status: waiting,
            cancel: 422,
            payment: 'created',
          });
        }
        if (cancelAnswer.status === 422) {
          expect(Object.values(cancelAnswer.body.errors).flat()[0]).toMatch(
            /^(The payment is being processed\.|Cannot cancel the \w+ while the status is \w+\.)$/,
          );
        }

        // Reconciliation: captured = kept + refunded, in our books and at the provider.
        const kept = final.status === paidState ? payment.amount_cents : 0;
        expect(payment.captured_cents).toBe(kept + payment.refunded_cents);
        if (paypal) {
          const atProvider = paypal.orders.get(target.providerOrderId)!;
          const capturedThere = atProvider.status === 'COMPLETED' ? payment.amount_cents : 0;
          const refundedThere =
            paypal.refunds.filter((refund) => refund.captureId === atProvider.captureId).length * payment.amount_cents;
          expect([payment.captured_cents, payment.refunded_cents]).toEqual([capturedThere, refundedThere]);
        }
      }
    },
  );

  it('leaves no capture or refund unfinished', async () => {
    const open = await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT count(*)::int AS n FROM payments WHERE status IN ('capturing', 'refunding')`);
    expect(open[0].n).toBe(0);
  });
});

describe('deleting a file while a quote is made with it', () => {
  let t: TestApp;
  let alice: TestAccount;
  beforeAll(async () => {
    t = await startTestApp({ workers: false });
    alice = await createApprovedAccount(t, await createStaffToken(t));
  });
  afterAll(() => t.close());

  it(`ends in one clear answer each, never a 500 (${ROUNDS} rounds)`, async () => {
    const outcomes = new Set<string>();
    const content = await docx({ paragraphs: [words(200)] });
    for (let round = 0; round < ROUNDS; round++) {
      const { id } = await uploadFile(t, alice.key, content, `exhibit-${round}.docx`);
      const [quote, removal] = await Promise.all([
        t.rest
          .raw()
          .post('/api/v1/quotes')
          .set('Authorization', `Bearer ${alice.key}`)
          .send({ source_language: 'de', target_language: 'en', service_type: 'standard', file_ids: [id] }),
        t.rest.raw().delete(`/api/v1/files/${id}`).set('Authorization', `Bearer ${alice.key}`),
      ]);
      outcomes.add(`${quote.status}/${removal.status}`);
      // Either the quote took the file (and it cannot be deleted), or the file went first (and the quote says so).
      if (quote.status === 201) {
        expect(removal.status).toBe(422);
        expect((await t.rest.get(`/api/v1/files/${id}`, alice.key)).status).toBe(200);
      } else {
        expect([quote.status, removal.status]).toEqual([422, 204]);
        expect(Object.keys(quote.body.errors)).toEqual(['file_ids']);
      }
    }
    expect([...outcomes].every((outcome) => ['201/422', '422/204'].includes(outcome))).toBe(true);
  });
});
