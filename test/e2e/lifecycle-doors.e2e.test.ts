import {
  CancelInterpretationBookingDocument,
  CancelOrderDocument,
  CompleteInterpretationBookingDocument,
  ConfirmInterpretationAvailabilityDocument,
  HoldInterpretationBookingDocument,
  HoldOrderDocument,
  ReleaseInterpretationBookingDocument,
  ReleaseOrderDocument,
  StaffCancelInterpretationBookingDocument,
  StaffCancelOrderDocument,
} from '../graphql/generated';
import { passStart } from '../helpers/bookings';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The lifecycles by behaviour (the Order and Booking statuses, D10, D12, D26): from every state an order or a booking can be
 * in, every move each door offers is tried. A move the lifecycle does not allow answers 422 under `status` on
 * both doors and changes nothing (state, audit log); an allowed one lands where the contract says.
 */
let t: TestApp;
let staff: string;
let alice: TestAccount;
let fileId: string;

beforeAll(async () => {
  // No workers: a paid order stays processing until a test runs its translation itself.
  t = await startTestApp({ workers: false });
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(300)] }), 'lease.docx')).id;
});
afterAll(() => t.close());

interface Answer {
  ok: boolean;
  statusError?: string;
}
const rest = async (path: string): Promise<Answer> => {
  const res = await t.rest.post(path, undefined, alice.key);
  expect([200, 422]).toContain(res.status);
  return { ok: res.status === 200, statusError: res.body.errors?.status?.[0] };
};
const gql = async (
  result: Promise<{ errors?: { extensions?: { code?: string; errors?: Record<string, string[]> } }[] }>,
): Promise<Answer> => {
  const { errors } = await result;
  if (errors) expect(errors[0].extensions?.code).toBe('BAD_USER_INPUT');
  return { ok: !errors, statusError: errors?.[0].extensions?.errors?.status?.[0] };
};
const auditCount = async (id: string) =>
  (
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT count(*)::int AS n FROM audit_entries WHERE resource_id = ?`, [id])
  )[0].n as number;

async function tryEveryMove<S extends string>(
  states: Record<S, () => Promise<string>>,
  moves: Record<string, { from: S[]; to: string; run: (id: string) => Promise<Answer> }>,
  read: (id: string) => Promise<string>,
) {
  for (const [state, make] of Object.entries(states) as [S, () => Promise<string>][]) {
    for (const [name, move] of Object.entries(moves)) {
      const id = await make();
      expect(await read(id)).toBe(state);
      const audits = await auditCount(id);
      const answer = await move.run(id);
      const allowed = move.from.includes(state);
      expect({ state, move: name, ok: answer.ok }).toEqual({ state, move: name, ok: allowed });
      if (allowed) {
        expect({ state, move: name, now: await read(id) }).toEqual({ state, move: name, now: move.to });
      } else {
        expect(answer.statusError).toMatch(/^Cannot [a-z ]+ while the status is [a-z_]+\.$/);
        expect(await read(id)).toBe(state);
        expect(await auditCount(id)).toBe(audits);
      }
    }
  }
}

describe('orders', () => {
  const orderStatus = async (id: string) =>
    (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data.status as string;
  const convert = async (serviceType = 'standard') => {
    const quote = (
      await t.rest
        .post(
          '/api/v1/quotes',
          { source_language: 'de', target_language: 'en', service_type: serviceType, file_ids: [fileId] },
          alice.key,
        )
        .expect(201)
    ).body;
    return (await t.rest.post(`/api/v1/quotes/${quote.data.id}/convert`, undefined, alice.key).expect(201)).body;
  };
  const paid = (serviceType = 'standard') => paidOrder(t, alice, [fileId], serviceType, { source_language: 'de' });
  const translated = async (serviceType: string) => {
    const id = await paid(serviceType);
    await t.services.translation.translateOrder(t.orm.em.fork(), id, { retryCount: 0, retryLimit: 5 });
    return id;
  };
  const states = {
    pending_payment: async () => (await convert()).data.id as string,
    processing: () => paid(),
    in_review: () => translated('certified'),
    on_hold: async () => {
      const id = (await convert()).data.id as string;
      await t.gql(HoldOrderDocument, { id, reason: 'Checking the documents' }, staff);
      return id;
    },
    completed: () => translated('standard'),
    cancelled: async () => {
      const id = (await convert()).data.id as string;
      await t.rest.post(`/api/v1/orders/${id}/cancel`, undefined, alice.key).expect(200);
      return id;
    },
  };
  type S = keyof typeof states;
  const open: S[] = ['pending_payment', 'processing', 'in_review', 'on_hold'];

  it('audits every move with the state it really left: pay, hold while processing, release, translate', async () => {
    const id = await paid();
    await t.gql(HoldOrderDocument, { id, reason: 'Checking a page' }, staff);
    await t.gql(ReleaseOrderDocument, { id }, staff);
    await t.services.translation.translateOrder(t.orm.em.fork(), id, { retryCount: 0, retryLimit: 5 });
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute(`SELECT action, from_state, to_state FROM audit_entries WHERE resource_id = ? ORDER BY created_at, id`, [
        id,
      ]);
    expect(rows.map((row: Record<string, string>) => [row.action, row.from_state, row.to_state])).toEqual([
      ['order.paid', 'pending_payment', 'processing'],
      ['order.hold', 'processing', 'on_hold'],
      ['order.release', 'on_hold', 'processing'],
      ['order.translated', 'processing', 'completed'],
    ]);
  });

  it('refuses every move the lifecycle does not allow, on both doors, and changes nothing', async () => {
    await tryEveryMove<S>(
      states,
      {
        'client cancel (REST)': {
          from: ['pending_payment', 'on_hold'],
          to: 'cancelled',
          run: (id) => rest(`/api/v1/orders/${id}/cancel`),
        },
        'client cancel (GraphQL)': {
          from: ['pending_payment', 'on_hold'],
          to: 'cancelled',
          run: (id) => gql(t.gql(CancelOrderDocument, { id }, alice.key)),
        },
        'staff hold': {
          from: ['pending_payment', 'processing', 'in_review'],
          to: 'on_hold',
          run: (id) => gql(t.gql(HoldOrderDocument, { id, reason: 'Why not' }, staff)),
        },
        'staff release': {
          from: ['on_hold'],
          to: 'pending_payment',
          run: (id) => gql(t.gql(ReleaseOrderDocument, { id }, staff)),
        },
        'staff cancel': {
          from: open,
          to: 'cancelled',
          run: (id) => gql(t.gql(StaffCancelOrderDocument, { id, reason: 'Duplicate' }, staff)),
        },
      },
      orderStatus,
    );
  }, 120_000);
});

describe('interpretation bookings', () => {
  const bookingStatus = async (id: string) =>
    (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data.status as string;
  const requested = async () => {
    const body = {
      source_language: 'es',
      target_language: 'en',
      mode: 'video_remote',
      scheduled_at: '2031-05-01T15:00:00Z',
      duration_hours: 2,
    };
    return (await t.rest.post('/api/v1/interpretation-bookings', body, alice.key).expect(201)).body.data.id as string;
  };
  const awaiting = async () => {
    const id = await requested();
    await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, staff);
    return id;
  };
  const confirmed = async () => {
    const id = await awaiting();
    const { approval_url } = (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key)).body.data.payment;
    await t.rest
      .raw()
      .post(`${approval_url.replace(t.config.appUrl, '')}/pay`)
      .type('form')
      .send({})
      .expect(200);
    // Paid before its start, which then passes: staff may complete it (D29).
    await passStart(t, id);
    return id;
  };
  const states = {
    requested,
    awaiting_payment: awaiting,
    confirmed,
    on_hold: async () => {
      const id = await requested();
      await t.gql(HoldInterpretationBookingDocument, { id, reason: 'Waiting for the court' }, staff);
      return id;
    },
    completed: async () => {
      const id = await confirmed();
      await t.gql(CompleteInterpretationBookingDocument, { id }, staff);
      return id;
    },
    cancelled: async () => {
      const id = await requested();
      await t.rest.post(`/api/v1/interpretation-bookings/${id}/cancel`, undefined, alice.key).expect(200);
      return id;
    },
  };
  type S = keyof typeof states;

  it('refuses every move the lifecycle does not allow, on both doors, and changes nothing', async () => {
    await tryEveryMove<S>(
      states,
      {
        'client cancel (REST)': {
          from: ['requested', 'awaiting_payment'],
          to: 'cancelled',
          run: (id) => rest(`/api/v1/interpretation-bookings/${id}/cancel`),
        },
        'client cancel (GraphQL)': {
          from: ['requested', 'awaiting_payment'],
          to: 'cancelled',
          run: (id) => gql(t.gql(CancelInterpretationBookingDocument, { id }, alice.key)),
        },
        'confirm availability': {
          from: ['requested'],
          to: 'awaiting_payment',
          run: (id) =>
            gql(t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, staff)),
        },
        complete: {
          from: ['confirmed'],
          to: 'completed',
          run: (id) => gql(t.gql(CompleteInterpretationBookingDocument, { id }, staff)),
        },
        'staff hold': {
          from: ['requested', 'awaiting_payment', 'confirmed'],
          to: 'on_hold',
          run: (id) => gql(t.gql(HoldInterpretationBookingDocument, { id, reason: 'Why not' }, staff)),
        },
        'staff release': {
          from: ['on_hold'],
          to: 'requested',
          run: (id) => gql(t.gql(ReleaseInterpretationBookingDocument, { id }, staff)),
        },
        'staff cancel': {
          from: ['requested', 'awaiting_payment', 'confirmed', 'on_hold'],
          to: 'cancelled',
          run: (id) => gql(t.gql(StaffCancelInterpretationBookingDocument, { id, reason: 'Duplicate' }, staff)),
        },
      },
      bookingStatus,
    );
  }, 120_000);
});
