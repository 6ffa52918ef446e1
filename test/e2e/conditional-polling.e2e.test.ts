import { serializeBooking } from '../../src/api/rest/serializers/booking.serializer';
import { serializeOrder } from '../../src/api/rest/serializers/order.serializer';
import { AttachmentOwner } from '../../src/domain/files/file-attachment.entity';
import { StoredFile } from '../../src/domain/files/file.entity';
import { Booking } from '../../src/domain/bookings/booking.entity';
import { Order } from '../../src/domain/orders/order.entity';
import { visibleOrderFiles } from '../../src/domain/orders/order-visibility';
import type { Ctx } from '../../src/domain/identity/context';
import { Account } from '../../src/domain/identity/account.entity';
import { accountActor } from '../../src/domain/identity/guards';
import {
  ConfirmInterpretationAvailabilityDocument,
  HoldOrderDocument,
  InterpretationBookingDocument,
  InterpretationBookingsDocument,
  OrderDocument,
  OrdersDocument,
} from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { signInAs } from '../helpers/members';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { StatementLog } from '../helpers/statement-log';

// No background workers: each order is moved to the state a test needs, and stays there (quotes analyse their files).
let t: TestApp;
let staff: string;
let alice: TestAccount;
let sources: string[];
const statements = new StatementLog();

beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: statements.record });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  sources = [];
  for (const name of ['a.docx', 'b.docx'])
    sources.push((await uploadFile(t, alice.key, await docx({ paragraphs: [words(40)] }), name)).id);
});
afterAll(() => t.close());

const FUTURE = '2030-12-01T09:30:00-05:00';
const orderPath = (id: string) => `/api/v1/orders/${id}`;
const bookingPath = (id: string) => `/api/v1/interpretation-bookings/${id}`;
const get = (path: string, ifNoneMatch?: string) => {
  const test = t.rest.get(path, alice.key);
  return ifNoneMatch === undefined ? test : test.set('If-None-Match', ifNoneMatch);
};
const etagOf = async (path: string) => (await get(path).expect(200)).headers.etag;
/** A booking of alice's, made through REST: its id. */
const book = async (fields: Record<string, unknown>): Promise<string> =>
  (
    await t.rest
      .post('/api/v1/interpretation-bookings', { source_language: 'es', target_language: 'en', ...fields }, alice.key)
      .expect(201)
  ).body.data.id;
const sql = (statement: string, params: unknown[]) => t.orm.em.fork().getConnection().execute(statement, params);

async function newOrder(serviceType = 'standard', files = sources): Promise<{ id: string; approvalUrl: string }> {
  const quote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: serviceType, file_ids: files },
        alice.key,
      )
      .expect(201)
  ).body.data;
  const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body;
  return { id: converted.data.id, approvalUrl: converted.provider_approval_url };
}
const pay = async (approvalUrl: string) =>
  t.rest
    .raw()
    .post(`${approvalUrl.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({})
    .expect(200);
const translate = (orderId: string) =>
  t.services.translation.translateOrder(t.orm.em.fork(), orderId, { retryCount: 0, retryLimit: 3 });

/** One order in each state a client can see, sources only or with translations, paid or not. */
async function ordersInEveryState(): Promise<Record<string, string>> {
  const pending = await newOrder();
  const processing = await newOrder();
  await pay(processing.approvalUrl);
  const completed = await newOrder();
  await pay(completed.approvalUrl);
  await translate(completed.id);
  const inReview = await newOrder('certified', [sources[0]]);
  await pay(inReview.approvalUrl);
  await translate(inReview.id);
  const onHold = await newOrder();
  await pay(onHold.approvalUrl);
  expect(
    (await t.gql(HoldOrderDocument, { id: onHold.id, reason: 'Unreadable page 2' }, staff)).errors,
  ).toBeUndefined();
  const cancelled = await newOrder();
  await t.rest.post(`/api/v1/orders/${cancelled.id}/cancel`, undefined, alice.key).expect(200);
  const ids = {
    pending_payment: pending.id,
    processing: processing.id,
    completed: completed.id,
    in_review: inReview.id,
    on_hold: onHold.id,
    cancelled: cancelled.id,
  };
  for (const [status, id] of Object.entries(ids))
    expect((await get(orderPath(id)).expect(200)).body.data.status).toBe(status);
  return ids;
}

/** Serialises with the clock held still, so that two answers carry the same signed links. */
function atOneInstant<T>(work: () => T): T {
  const now = Date.now();
  const spy = jest.spyOn(Date, 'now').mockReturnValue(now);
  try {
    return work();
  } finally {
    spy.mockRestore();
  }
}

const verifyUrl = (code: string) => t.services.certificates.verificationUrl(code);

async function aliceCtx(): Promise<Ctx> {
  const em = t.orm.em.fork();
  return { em, requestId: 'test', actor: accountActor(await em.findOneOrFail(Account, { id: alice.id })) };
}

describe('the polled read answers exactly as the entity path (D23)', () => {
  it('for orders in every state, with and without translations, one or a page, on REST and GraphQL', async () => {
    const ids = await ordersInEveryState();
    const ctx = await aliceCtx();
    // The entity path: the orders hydrated with their payments, and their files as the service shows them.
    const orders = await ctx.em.find(Order, { account: alice.id });
    const filesOf = await t.services.orders.filesOfMany(
      ctx.em,
      orders.map((order) => order.id),
    );
    const entityViews = orders.map((order) => ({
      order,
      files: visibleOrderFiles(ctx.actor, order, filesOf.get(order.id) ?? []),
    }));
    const page = (await t.services.orders.list(ctx, { perPage: 100 })).items;
    for (const id of Object.values(ids)) {
      const entity = entityViews.find((view) => view.order.id === id)!;
      for (const read of [await t.services.orders.get(ctx, id), page.find((view) => view.order.id === id)!]) {
        const [fast, full] = atOneInstant(() => [
          JSON.stringify(serializeOrder(read, t.services.files, verifyUrl, t.services.receipts)),
          JSON.stringify(serializeOrder(entity, t.services.files, verifyUrl, t.services.receipts)),
        ]);
        expect(fast).toBe(full);
      }
    }
    expect(
      JSON.parse(
        atOneInstant(() =>
          JSON.stringify(
            serializeOrder(
              entityViews.find((v) => v.order.id === ids.completed)!,
              t.services.files,
              verifyUrl,
              t.services.receipts,
            ),
          ),
        ),
      ).files.map((f: { type: string }) => f.type),
    ).toEqual(['source', 'source', 'translation', 'translation']);
    const list = (await t.gql(OrdersDocument, { perPage: 100 }, alice.key)).data!.orders.items;
    for (const id of Object.values(ids)) {
      const one = (await t.gql(OrderDocument, { id }, alice.key)).data!.order!;
      const strip = (order: typeof one) => JSON.stringify(order).replace(/\?expires=\d+&signature=[0-9a-f]+/g, '');
      expect(strip(one)).toBe(strip(list.find((order) => order.id === id)!));
    }
  });

  it('for bookings with and without a payment, one or a page, on REST and GraphQL', async () => {
    const requested = await book({
      mode: 'on_site',
      location: 'Court 4',
      scheduled_at: FUTURE,
      duration_hours: 1.25,
      reference: 'Matter 9',
    });
    const confirmed = await book({
      source_language: 'de',
      mode: 'video_remote',
      scheduled_at: FUTURE,
      duration_hours: 3,
    });
    await t.gql(ConfirmInterpretationAvailabilityDocument, { id: confirmed, interpreterName: 'Ana Ruiz' }, staff);
    const ctx = await aliceCtx();
    const entities = await ctx.em.find(Booking, { account: alice.id }, { populate: ['payment'] });
    const page = (await t.services.bookings.list(ctx, { perPage: 100 })).items;
    const provider = t.services.payments.provider.name;
    for (const id of [requested, confirmed]) {
      const entity = JSON.stringify(
        serializeBooking(
          entities.find((b) => b.id === id)!,
          provider,
          t.services.receipts,
        ),
      );
      expect(
        JSON.stringify(
          serializeBooking((await t.services.bookings.get(ctx, id)).booking, provider, t.services.receipts),
        ),
      ).toBe(entity);
      expect(
        JSON.stringify(
          serializeBooking(
            page.find((b) => b.id === id)!,
            provider,
            t.services.receipts,
          ),
        ),
      ).toBe(entity);
      const single = await t.gql(InterpretationBookingDocument, { id }, alice.key);
      expect(single.errors).toBeUndefined();
      const one = single.data!.interpretationBooking;
      const list = (await t.gql(InterpretationBookingsDocument, { perPage: 100 }, alice.key)).data!
        .interpretationBookings.items;
      expect(one).toEqual(list.find((b) => b.id === id));
    }
  });
});

describe('conditional polling of GET /orders/{id} (D23)', () => {
  it('answers a strong ETag that holds while nothing changes, fresh download links aside', async () => {
    const { id, approvalUrl } = await newOrder();
    await pay(approvalUrl);
    await translate(id);
    const first = await get(orderPath(id)).expect(200);
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.body.data.files.some((f: { download_url?: string }) => f.download_url)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the next links expire a second later
    const second = await get(orderPath(id)).expect(200);
    expect(second.body.data.files).not.toEqual(first.body.data.files);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('answers 304 with no body to a matching If-None-Match, compared weakly, in a list or as *; 200 otherwise', async () => {
    const { id } = await newOrder();
    const etag = await etagOf(orderPath(id));
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get(orderPath(id), condition).expect(304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    }
    for (const condition of ['"other"', etag.slice(1, -1), `W/"other"`]) {
      expect((await get(orderPath(id), condition).expect(200)).body.data.id).toBe(id);
    }
    // `*` matches a current representation only: a missing order is still 404.
    await get(orderPath('00000000-0000-4000-8000-000000000000'), '*').expect(404);
    await t.rest
      .get(orderPath(id), (await createApprovedAccount(t, staff)).key)
      .set('If-None-Match', etag)
      .expect(404);
  });

  it('changes the ETag when the status, the payment or the files change, and only then', async () => {
    const { id, approvalUrl } = await newOrder('standard', [sources[0]]);
    const tags = [await etagOf(orderPath(id))];
    const changed = async () => {
      const etag = await etagOf(orderPath(id));
      expect(tags).not.toContain(etag);
      await get(orderPath(id), etag).expect(304);
      tags.push(etag);
    };
    await pay(approvalUrl); // status and payment
    await changed();
    await sql(`UPDATE payments SET refunded_at = now() WHERE id = (SELECT payment_id FROM orders WHERE id = ?)`, [id]); // the payment alone
    await changed();
    const em = t.orm.em.fork();
    await t.services.files.attach(
      em,
      await em.findOneOrFail(StoredFile, { id: sources[1] }),
      AttachmentOwner.ORDER,
      id,
    ); // the files alone
    await changed();
    expect((await get(orderPath(id)).expect(200)).body.data.files).toHaveLength(2);
    await t.gql(HoldOrderDocument, { id, reason: 'Check the stamp' }, staff);
    await changed();
    await get(orderPath(id), tags[0]).expect(200);
    expect(await etagOf(orderPath(id))).toBe(tags.at(-1));
  });

  it("reads the answer or, for a conditional request, the version alone in the key's statement: one statement a poll", async () => {
    const { id } = await newOrder();
    const etag = await etagOf(orderPath(id));
    const count = async (condition?: string, status = 200) =>
      statements.of(await get(orderPath(id), condition).expect(status)).length;
    // The key's look-up reads the order with its payment and files; a conditional request's look-up reads the version
    // instead, and the answer after it only when it changed. The rate limit counts in memory.
    expect(await count()).toBe(1);
    expect(await count(etag, 304)).toBe(1);
    expect(await count('"stale"')).toBe(2);
  });

  it('keeps answering, with the same ETag, when a migration adds columns under its prepared statements', async () => {
    const { id } = await newOrder();
    const before = await get(orderPath(id)).expect(200);
    await get(orderPath(id), before.headers.etag).expect(304); // every statement of the path is prepared by now
    await sql('ALTER TABLE accounts ADD COLUMN added_later text; ALTER TABLE orders ADD COLUMN added_later text', []);
    try {
      const after = await get(orderPath(id)).expect(200);
      expect(after.body).toEqual(before.body);
      expect(after.headers.etag).toBe(before.headers.etag);
      await get(orderPath(id), before.headers.etag).expect(304);
    } finally {
      await sql('ALTER TABLE accounts DROP COLUMN added_later; ALTER TABLE orders DROP COLUMN added_later', []);
    }
  });
});

describe('conditional polling of GET /interpretation-bookings/{id} (D23)', () => {
  it('changes the ETag when the status or the payment changes; 304 while it does not', async () => {
    const id = await book({ mode: 'asl', scheduled_at: FUTURE, duration_hours: 2 });
    const first = await get(bookingPath(id)).expect(200);
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const notModified = await get(bookingPath(id), first.headers.etag).expect(304);
    expect(notModified.text).toBe('');
    expect(statements.of(notModified)).toEqual([expect.stringMatching(/from "accounts"/)]);
    await get(bookingPath(id), `W/${first.headers.etag}`).expect(304);
    await get(bookingPath(id), '*').expect(304);
    expect(await etagOf(bookingPath(id))).toBe(first.headers.etag);

    await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, staff); // status and payment
    const confirmed = await etagOf(bookingPath(id));
    expect(confirmed).not.toBe(first.headers.etag);
    await get(bookingPath(id), first.headers.etag).expect(200);
    await sql(
      `UPDATE payments SET approval_url = approval_url || '&again' WHERE id = (SELECT payment_id FROM interpretation_bookings WHERE id = ?)`,
      [id],
    );
    const paymentChanged = await etagOf(bookingPath(id));
    expect(paymentChanged).not.toBe(confirmed);
    await t.rest.post(`/api/v1/interpretation-bookings/${id}/cancel`, undefined, alice.key).expect(200);
    expect(await etagOf(bookingPath(id))).not.toBe(paymentChanged);
  });
});

describe("a member's session polls alike (D23)", () => {
  it('is answered 304 too, the version read after the look-up of the session', async () => {
    const session = await signInAs(t, staff, alice.email);
    const id = await book({ mode: 'asl', scheduled_at: FUTURE, duration_hours: 1 });
    const etag = await etagOf(bookingPath(id));
    const polled = await t.rest.get(bookingPath(id), session).set('If-None-Match', etag).expect(304);
    expect(statements.of(polled)).toEqual([
      expect.stringMatching(/FROM sessions/),
      expect.stringMatching(/^SELECT md5/),
    ]);
    await t.rest.get(bookingPath(id), session).set('If-None-Match', '"stale"').expect(200);
  });
});

describe('every other GET of a resource or a list (D23)', () => {
  it('answers a strong ETag, Cache-Control and 304 to a matching If-None-Match', async () => {
    const quote = (
      await t.rest
        .post(
          '/api/v1/quotes',
          { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [sources[0]] },
          alice.key,
        )
        .expect(201)
    ).body.data;
    for (const path of [
      '/api/v1/orders',
      '/api/v1/interpretation-bookings',
      '/api/v1/quotes',
      `/api/v1/quotes/${quote.id}`,
      `/api/v1/files/${sources[0]}`,
      '/api/v1/me',
      '/api/v1/languages',
      '/api/v1/pricing',
    ]) {
      const res = await get(path).expect(200);
      expect(res.headers.etag).toMatch(/^"[^"]+"$/);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect((await get(path, res.headers.etag).expect(304)).text).toBe('');
      await get(path, '"other"').expect(200);
    }
  });

  it("changes a list's ETag when an item changes or joins it", async () => {
    const list = await etagOf('/api/v1/orders?per_page=100');
    const { id } = await newOrder();
    const grown = await etagOf('/api/v1/orders?per_page=100');
    expect(grown).not.toBe(list);
    expect(await etagOf('/api/v1/orders?per_page=100')).toBe(grown);
    await t.rest.post(`/api/v1/orders/${id}/cancel`, undefined, alice.key).expect(200);
    expect(await etagOf('/api/v1/orders?per_page=100')).not.toBe(grown);
  });
});
