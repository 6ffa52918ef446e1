import {
  ApproveTranslationDocument,
  AssignOrderDocument,
  AttachReviewedTranslationDocument,
  CompleteCertifiedOrderDocument,
  CompleteInterpretationBookingDocument,
  ConfirmInterpretationAvailabilityDocument,
  HoldInterpretationBookingDocument,
  HoldOrderDocument,
  ReleaseOrderDocument,
  StaffCancelInterpretationBookingDocument,
  StaffCancelOrderDocument,
  StaffOrderDocument,
} from '../graphql/generated';
import { passStart, requestBooking } from '../helpers/bookings';
import { createStaffMember } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, unpaidOrder } from '../helpers/orders';
import { sleep } from '../helpers/poll';
import { startTestApp, type GraphQLResult, type TestApp } from '../helpers/test-app';

/**
 * The staff desk under real concurrency (D10, D12, D19, D20, D26): for several rounds, two or three desk moves (or a
 * desk move and the client's own, or a desk move and the translation job) hit one order or booking at the same
 * instant. After each round: no 5xx and no unexpected error, exactly one winner where the transition table allows
 * only one, every refusal in the documented shape, and the database agrees with the answers: one certificate per
 * completed order, captured = kept + refunded for the payment, one e-mail and one audit row per move that happened.
 */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 8);

/** One answer of a race, from either door. */
interface Answer {
  who: string;
  ok: boolean;
  http: number;
  code?: string;
  errors?: Record<string, string[]>;
}

interface PaymentRow {
  id: string;
  status: string;
  amount_cents: number;
  captured_cents: number;
  refunded_cents: number;
}

const REFUSAL =
  /^(Cannot [a-z ]+ while the status is [a-z_]+\.|The payment is being processed\.|The order is being certified\.)$/;

let t: TestApp;
let alice: TestAccount;
let ada: Awaited<ReturnType<typeof createStaffMember>>;
let grace: Awaited<ReturnType<typeof createStaffMember>>;
let alan: Awaited<ReturnType<typeof createStaffMember>>;
let fileId: string;

beforeAll(async () => {
  // No workers: a paid order stays processing until a test runs its translation (the job) itself.
  t = await startTestApp({ workers: false });
  ada = await createStaffMember(t, { name: 'Ada Lovelace', credentials: 'ATA-certified translator' });
  grace = await createStaffMember(t, { name: 'Grace Hopper' });
  alan = await createStaffMember(t, { name: 'Alan Turing' });
  alice = await createApprovedAccount(t, await createStaffToken(t));
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(120)] }), 'affidavit.docx')).id;
});
afterAll(() => t.close());

// --- Answers --------------------------------------------------------------------------------------------------

const viaGraphQL =
  (who: string) =>
  async (pending: Promise<GraphQLResult<unknown>>): Promise<Answer> => {
    const { status, errors } = await pending;
    return {
      who,
      ok: !errors,
      http: status,
      code: errors?.[0].extensions?.code,
      errors: errors?.[0].extensions?.errors,
    };
  };

const viaRest = (who: string, path: string): Promise<Answer> =>
  t.rest
    .raw()
    .post(path)
    .set('Authorization', `Bearer ${alice.key}`)
    .then((res) => ({
      who,
      ok: res.status === 200,
      http: res.status,
      code: res.status === 422 ? 'BAD_USER_INPUT' : String(res.status),
      errors: res.body.errors,
    }));

/**
 * Every request of a round leaves at once, each on its own connection. Whoever leaves first usually reaches the lock
 * first, so the order they leave in turns with the round, and every fourth round each leaves after a few random
 * milliseconds: over the rounds each side gets to win, and to arrive while another holds the row. Answers come back
 * in the order the requests were given.
 */
async function race(round: number, ...requests: (() => Promise<Answer>)[]): Promise<Answer[]> {
  const answers: Promise<Answer>[] = new Array(requests.length);
  for (let k = 0; k < requests.length; k++) {
    const index = (k + round) % requests.length;
    answers[index] = round % 4 === 3 ? sleep(Math.random() * 5).then(requests[index]) : requests[index]();
  }
  return Promise.all(answers);
}

/**
 * No 5xx, and every refusal is the documented 422 (`BAD_USER_INPUT` on GraphQL) under `status` (D2, D14), or one of
 * `also` (a code the operation documents for this race).
 */
function expectClearAnswers(round: number, answers: Answer[], also: string[] = []): void {
  for (const answer of answers) {
    expect({ round, who: answer.who, http: answer.http < 500 }).toEqual({ round, who: answer.who, http: true });
    if (answer.ok || also.includes(answer.code!)) continue;
    expect({ round, who: answer.who, code: answer.code, fields: Object.keys(answer.errors ?? {}) }).toEqual({
      round,
      who: answer.who,
      code: 'BAD_USER_INPUT',
      fields: ['status'],
    });
    expect(answer.errors!.status[0]).toMatch(REFUSAL);
  }
}

/** A request that leaves `ms` later than the others of its round: for a side that is slower to reach the lock. */
const later = (ms: number, request: () => Promise<Answer>) => (): Promise<Answer> => sleep(ms).then(request);
/** Steps of delay over the rounds, so that the slower side also gets to go first. */
const stagger = <T>(round: number, steps: T[]): T => steps[round % steps.length];

const winners = (answers: Answer[], ...who: string[]) =>
  answers.filter((answer) => answer.ok && who.includes(answer.who)).map((answer) => answer.who);
const byWho = (answers: Answer[], who: string) => answers.find((answer) => answer.who === who)!;

// --- The database, as it is after a round ---------------------------------------------------------------------

const sql = <T extends object = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.fork().getConnection().execute<T[]>(query, params);
const count = async (query: string, params: unknown[]): Promise<number> =>
  (await sql<{ n: number }>(query, params))[0].n;

const orderRow = async (id: string) =>
  (
    await sql<{
      status: string;
      number: string;
      held_from: string | null;
      payment_id: string;
      assignee_id: string | null;
    }>('SELECT * FROM orders WHERE id = ?', [id])
  )[0];
const bookingRow = async (id: string) =>
  (
    await sql<{
      status: string;
      number: string;
      held_from: string | null;
      payment_id: string | null;
      interpreter_name: string | null;
    }>('SELECT * FROM interpretation_bookings WHERE id = ?', [id])
  )[0];
const paymentRow = async (id: string) => (await sql<PaymentRow>('SELECT * FROM payments WHERE id = ?', [id]))[0];
/** The audit actions of one resource (an order, a booking, a payment), counted. */
const auditActions = async (resourceId: string): Promise<Record<string, number>> => {
  const rows = await sql<{ action: string; n: number }>(
    'SELECT action, count(*)::int AS n FROM audit_entries WHERE resource_id = ? GROUP BY action',
    [resourceId],
  );
  return Object.fromEntries(rows.map((row) => [row.action, row.n]));
};
/** Each move of the round audited once when its request won, never when it was refused. */
async function expectAuditedAsAnswered(
  round: number,
  resourceId: string,
  prefix: 'order' | 'booking',
  answers: Answer[],
  moves: string[],
): Promise<void> {
  const audit = await auditActions(resourceId);
  const audited = Object.fromEntries(moves.map((move) => [move, audit[`${prefix}.${move}`] ?? 0]));
  const won = Object.fromEntries(moves.map((move) => [move, byWho(answers, move).ok ? 1 : 0]));
  expect({ round, ...audited }).toEqual({ round, ...won });
}
const emails = (kind: string, number: string) =>
  count(`SELECT count(*)::int AS n FROM sent_emails WHERE kind = ? AND subject LIKE ?`, [kind, `%${number}%`]);
const translationJobs = (orderId: string) =>
  count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'translate-order' AND data->>'orderId' = ?`, [orderId]);
const orderFiles = (orderId: string, type: string) =>
  sql<{ id: string; sha256: string; derived_from_id: string | null }>(
    `SELECT f.* FROM files f JOIN file_attachments a ON a.file_id = f.id WHERE a.order_id = ? AND f.type = ?`,
    [orderId, type],
  );

/**
 * The money of a holder after the round (D26): nothing left in flight, captured = kept + refunded, and kept only when
 * the order or booking was not cancelled. A cancelled paid holder was refunded once, in full.
 */
async function expectMoneyReconciled(
  round: number,
  paymentId: string,
  finalStatus: string,
  paid: boolean,
): Promise<void> {
  const payment = await paymentRow(paymentId);
  const kept = finalStatus === 'cancelled' ? 0 : payment.captured_cents;
  expect({ round, finalStatus, reconciled: payment.captured_cents === kept + payment.refunded_cents }).toEqual({
    round,
    finalStatus,
    reconciled: true,
  });
  const expected = !paid
    ? finalStatus === 'cancelled'
      ? 'voided'
      : 'created'
    : finalStatus === 'cancelled'
      ? 'refunded'
      : 'captured';
  expect({ round, finalStatus, payment: payment.status, captured: payment.captured_cents }).toEqual({
    round,
    finalStatus,
    payment: expected,
    captured: paid ? payment.amount_cents : 0,
  });
  const audit = await auditActions(paymentId);
  expect({ round, refunding: audit['payment.refunding'] ?? 0, refunded: audit['payment.refunded'] ?? 0 }).toEqual(
    paid && finalStatus === 'cancelled' ? { round, refunding: 1, refunded: 1 } : { round, refunding: 0, refunded: 0 },
  );
}

// --- Orders and bookings to race on ----------------------------------------------------------------------------

const translate = (orderId: string) =>
  t.services.translation.translateOrder(t.orm.em.fork(), orderId, { retryCount: 0, retryLimit: 5 });
const staffView = async (id: string) => (await t.gql(StaffOrderDocument, { id }, ada.token)).data!.staffOrder!;

/** A paid standard order, processing (no worker takes its translation). */
const processingOrder = () => paidOrder(t, alice, [fileId], 'standard', { source_language: 'de' });

/** A paid certified order in review; its machine translation approved unless `approved` is false. */
async function certifiedInReview({ approved = true } = {}): Promise<{
  id: string;
  translationId: string;
  sourceId: string;
}> {
  const id = await paidOrder(t, alice, [fileId], 'certified', { source_language: 'de' });
  await translate(id);
  const [translation] = await orderFiles(id, 'translation');
  if (approved)
    expect((await t.gql(ApproveTranslationDocument, { fileId: translation.id }, ada.token)).errors).toBeUndefined();
  return { id, translationId: translation.id, sourceId: translation.derived_from_id! };
}

const requestedBooking = async (): Promise<string> =>
  (await requestBooking(t, alice.key, { scheduled_at: '2031-03-01T09:00:00Z' })).id;

async function confirmedBooking(): Promise<string> {
  const id = await requestedBooking();
  const confirmed = await t.gql(
    ConfirmInterpretationAvailabilityDocument,
    { id, interpreterName: 'Ana Ruiz' },
    ada.token,
  );
  await t.rest
    .raw()
    .post(`${confirmed.data!.confirmInterpretationAvailability.payment.approvalUrl!.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({})
    .expect(200);
  expect((await bookingRow(id)).status).toBe('confirmed');
  // Its start then passes, so staff may complete it (D29).
  await passStart(t, id);
  return id;
}

// --- Certified orders -----------------------------------------------------------------------------------------

describe('completing a certified order', () => {
  it(`twice at once issues one certificate (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { id } = await certifiedInReview();
      // The reviewer certifies (D28), from two tabs at once.
      const complete = (who: string, token: string) => () =>
        viaGraphQL(who)(t.gql(CompleteCertifiedOrderDocument, { orderId: id }, token));
      const answers = await race(round, complete('ada', ada.token), complete('ada again', ada.token));
      expectClearAnswers(round, answers);
      expect({ round, winners: answers.filter((answer) => answer.ok).length }).toEqual({ round, winners: 1 });
      // The other finds the order completed, or still being certified (D20: the work runs with no lock held).
      const loser = answers.find((answer) => !answer.ok)!;
      expect(['Cannot complete the order while the status is completed.', 'The order is being certified.']).toContain(
        loser.errors!.status[0],
      );

      const order = await orderRow(id);
      expect(order.status).toBe('completed');
      const certificates = await sql<{ code: string; documents: { sha256: string }[]; translator: { name: string } }>(
        'SELECT * FROM certificates WHERE order_id = ?',
        [id],
      );
      expect({ round, certificates: certificates.length }).toEqual({ round, certificates: 1 });
      expect({ round, files: (await orderFiles(id, 'certificate')).length }).toEqual({ round, files: 1 });
      // The one translation was stamped once, by the winner: the certificate states its hash, and signs as the winner.
      const translations = await orderFiles(id, 'translation');
      expect(translations.map((file) => file.sha256)).toEqual(
        certificates[0].documents.map((document) => document.sha256),
      );
      expect(certificates[0].translator.name).toBe('Ada Lovelace');
      expect((await staffView(id)).certificate!.code).toBe(certificates[0].code);
      expect({
        round,
        audit: (await auditActions(id))['order.complete'],
        mails: await emails('order_completed', order.number),
      }).toEqual({ round, audit: 1, mails: 1 });
      await expectMoneyReconciled(round, order.payment_id, order.status, true);
    }
  });

  it(`racing a staff cancel and a hold: completed and certified, or cancelled and refunded, never both (${ROUNDS} rounds)`, async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const { id } = await certifiedInReview();
      const answers = await race(
        round,
        () => viaGraphQL('complete')(t.gql(CompleteCertifiedOrderDocument, { orderId: id }, ada.token)),
        () =>
          viaGraphQL('cancel')(
            t.gql(StaffCancelOrderDocument, { id, reason: 'The client withdrew the matter' }, grace.token),
          ),
        () => viaGraphQL('hold')(t.gql(HoldOrderDocument, { id, reason: 'A page is missing' }, alan.token)),
      );
      expectClearAnswers(round, answers);
      const order = await orderRow(id);
      outcomes.add(`${order.status}:${winners(answers, 'complete', 'cancel', 'hold').join('+')}`);

      // Completing and cancelling exclude each other; a hold comes before a cancel or not at all.
      expect({ round, endings: winners(answers, 'complete', 'cancel').length }).toEqual({ round, endings: 1 });
      if (byWho(answers, 'complete').ok) {
        expect({ round, status: order.status, hold: byWho(answers, 'hold').ok }).toEqual({
          round,
          status: 'completed',
          hold: false,
        });
      } else {
        expect({ round, status: order.status }).toEqual({ round, status: 'cancelled' });
      }
      const certificates = await count('SELECT count(*)::int AS n FROM certificates WHERE order_id = ?', [id]);
      expect({ round, certificates, files: (await orderFiles(id, 'certificate')).length }).toEqual(
        order.status === 'completed' ? { round, certificates: 1, files: 1 } : { round, certificates: 0, files: 0 },
      );
      await expectAuditedAsAnswered(round, id, 'order', answers, ['complete', 'cancel', 'hold']);
      expect({
        round,
        held: await emails('on_hold', order.number),
        completed: await emails('order_completed', order.number),
      }).toEqual({
        round,
        held: byWho(answers, 'hold').ok ? 1 : 0,
        completed: order.status === 'completed' ? 1 : 0,
      });
      await expectMoneyReconciled(round, order.payment_id, order.status, true);
    }
    expect(
      [...outcomes].every((outcome) =>
        ['completed:complete', 'cancelled:cancel', 'cancelled:cancel+hold'].includes(outcome),
      ),
    ).toBe(true);
  });
});

describe('reviewing a translation', () => {
  it(`approved by two reviewers while a third replaces it: one translation, one review, audited as answered (${ROUNDS} rounds)`, async () => {
    const reviewed = await docx({ paragraphs: ['Affidavit (reviewed translation).'] });
    for (let round = 0; round < ROUNDS; round++) {
      const { id, translationId, sourceId } = await certifiedInReview({ approved: false });
      const approve = (who: string, token: string) => () =>
        viaGraphQL(who)(t.gql(ApproveTranslationDocument, { fileId: translationId }, token));
      // The upload makes the replacement slower to reach the lock: the approvals leave later in some rounds.
      const delay = stagger(round, [0, 15, 40, 80]);
      const answers = await race(
        round,
        later(delay, approve('ada', ada.token)),
        later(delay, approve('grace', grace.token)),
        () =>
          viaGraphQL('alan')(
            t.gqlUpload(
              AttachReviewedTranslationDocument,
              { orderId: id, sourceFileId: sourceId },
              { content: reviewed, filename: 'affidavit.en.docx' },
              { token: alan.token },
            ),
          ),
      );
      // An approval that comes after the replacement finds its file gone: 404, as for any file not on the order.
      expectClearAnswers(round, answers, ['NOT_FOUND']);
      expect({ round, replaced: byWho(answers, 'alan').ok }).toEqual({ round, replaced: true });

      const translations = await orderFiles(id, 'translation');
      expect({ round, translations: translations.length, replaced: translations[0].id !== translationId }).toEqual({
        round,
        translations: 1,
        replaced: true,
      });
      const reviews = await sql<{ file_id: string; kind: string; reviewer_id: string }>(
        'SELECT * FROM translation_reviews WHERE order_id = ?',
        [id],
      );
      expect({ round, reviews: reviews.map((review) => [review.file_id, review.kind, review.reviewer_id]) }).toEqual({
        round,
        reviews: [[translations[0].id, 'replaced', alan.id]],
      });
      const audit = await auditActions(id);
      expect({
        round,
        approvals: audit['order.approve_translation'] ?? 0,
        replacements: audit['order.attach_reviewed_translation'],
      }).toEqual({
        round,
        approvals: winners(answers, 'ada', 'grace').length,
        replacements: 1,
      });
    }
  });
});

describe('holds and cancels of a paid order', () => {
  it(`client cancel, staff cancel and release of a held order: cancelled once, refunded once (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await processingOrder();
      expect((await t.gql(HoldOrderDocument, { id, reason: 'Checking the client' }, ada.token)).errors).toBeUndefined();
      const answers = await race(
        round,
        () => viaRest('client', `/api/v1/orders/${id}/cancel`),
        () => viaGraphQL('staff')(t.gql(StaffCancelOrderDocument, { id, reason: 'Duplicate order' }, grace.token)),
        () => viaGraphQL('release')(t.gql(ReleaseOrderDocument, { id }, alan.token)),
      );
      expectClearAnswers(round, answers);
      const cancels = winners(answers, 'client', 'staff');
      expect({ round, cancels: cancels.length }).toEqual({ round, cancels: 1 });
      // A release that won first put the order back in processing, where only staff may cancel it.
      if (byWho(answers, 'release').ok) expect({ round, cancels }).toEqual({ round, cancels: ['staff'] });

      const order = await orderRow(id);
      expect({ round, status: order.status, heldFrom: order.held_from }).toEqual({
        round,
        status: 'cancelled',
        heldFrom: null,
      });
      const audit = await auditActions(id);
      expect({ round, cancel: audit['order.cancel'], release: audit['order.release'] ?? 0 }).toEqual({
        round,
        cancel: 1,
        release: byWho(answers, 'release').ok ? 1 : 0,
      });
      // The release queued the translation again only when it happened (the first job came with the payment).
      expect({ round, jobs: await translationJobs(id) }).toEqual({ round, jobs: byWho(answers, 'release').ok ? 2 : 1 });
      await expectMoneyReconciled(round, order.payment_id, order.status, true);
    }
  });

  it(`two holds and a release at once, then two releases: one e-mail per hold, one translation per release (${ROUNDS} rounds)`, async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const id = await processingOrder();
      const hold = (who: string, token: string) => () =>
        viaGraphQL(who)(t.gql(HoldOrderDocument, { id, reason: `Held by ${who}` }, token));
      const release = (who: string, token: string) => () => viaGraphQL(who)(t.gql(ReleaseOrderDocument, { id }, token));
      const first = await race(round, hold('ada', ada.token), hold('grace', grace.token), release('alan', alan.token));
      expectClearAnswers(round, first);
      // Serialised, the three can only be: a hold (the other refused); a hold then the release; or hold, release, hold.
      const holders = winners(first, 'ada', 'grace');
      const released = byWho(first, 'alan').ok;
      outcomes.add(`${holders.length} hold(s), ${released ? 'released' : 'not released'}`);
      expect({ round, holds: holders.length >= 1, secondHoldOnlyAfterRelease: holders.length < 2 || released }).toEqual(
        { round, holds: true, secondHoldOnlyAfterRelease: true },
      );
      let order = await orderRow(id);
      const held = holders.length > (released ? 1 : 0);
      expect({ round, status: order.status, heldFrom: order.held_from }).toEqual(
        held ? { round, status: 'on_hold', heldFrom: 'processing' } : { round, status: 'processing', heldFrom: null },
      );
      expect({ round, mails: await emails('on_hold', order.number) }).toEqual({ round, mails: holders.length });

      let releases = released ? 1 : 0;
      if (held) {
        const second = await race(round, release('ada', ada.token), release('grace', grace.token));
        expectClearAnswers(round, second);
        expect({ round, releases: second.filter((answer) => answer.ok).length }).toEqual({ round, releases: 1 });
        expect(second.find((answer) => !answer.ok)!.errors!.status).toEqual([
          'Cannot release the order while the status is processing.',
        ]);
        releases++;
        order = await orderRow(id);
        expect({ round, status: order.status, heldFrom: order.held_from }).toEqual({
          round,
          status: 'processing',
          heldFrom: null,
        });
      }
      const audit = await auditActions(id);
      expect({ round, hold: audit['order.hold'], release: audit['order.release'] }).toEqual({
        round,
        hold: holders.length,
        release: releases,
      });
      // The payment queued one translation and each release that happened one more: never one per release attempt.
      expect({ round, jobs: await translationJobs(id) }).toEqual({ round, jobs: 1 + releases });
      const rows = await sql<{ from_state: string; to_state: string; details: { reason?: string } | null }>(
        `SELECT from_state, to_state, details FROM audit_entries WHERE resource_id = ? AND action = 'order.hold'`,
        [id],
      );
      // The holds recorded are the winners', each from the state the order was really in.
      expect({ round, holds: rows.map((row) => [row.from_state, row.to_state, row.details?.reason]).sort() }).toEqual({
        round,
        holds: holders.map((who) => ['processing', 'on_hold', `Held by ${who}`]).sort(),
      });
      await expectMoneyReconciled(round, order.payment_id, order.status, true);
    }
    expect(
      [...outcomes].every((outcome) =>
        ['1 hold(s), not released', '1 hold(s), released', '2 hold(s), released'].includes(outcome),
      ),
    ).toBe(true);
  });

  it(`the translation job finishing while staff cancel or hold: one of them, and the job ends quietly (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await processingOrder();
      const staffMove = round % 2 === 0 ? 'cancel' : 'hold';
      const job = (): Promise<Answer> =>
        translate(id).then(
          () => ({ who: 'job', ok: true, http: 200 }),
          (error: Error) => ({
            who: 'job',
            ok: false,
            http: 0,
            code: error.constructor.name,
            errors: { job: [error.message] },
          }),
        );
      const staff = () =>
        viaGraphQL(staffMove)(
          staffMove === 'cancel'
            ? t.gql(StaffCancelOrderDocument, { id, reason: 'Sent to the wrong office' }, ada.token)
            : t.gql(HoldOrderDocument, { id, reason: 'Wrong document' }, ada.token),
        );
      // The job translates before it locks the order: staff leave later in some rounds, to land on each side of it.
      const answers = await race(round, job, later(stagger(round, [0, 0, 10, 10, 30, 30, 60, 60]), staff));
      // The job is not answered to anyone: whatever happened to the order meanwhile, it must not fail (and be retried).
      expect({ round, staffMove, job: byWho(answers, 'job') }).toEqual({
        round,
        staffMove,
        job: { who: 'job', ok: true, http: 200 },
      });
      expectClearAnswers(round, answers);
      const order = await orderRow(id);
      const staffWon = byWho(answers, staffMove).ok;
      expect({ round, status: order.status }).toEqual({
        round,
        status: staffWon ? (staffMove === 'cancel' ? 'cancelled' : 'on_hold') : 'completed',
      });
      const audit = await auditActions(id);
      expect({ round, translated: audit['order.translated'] ?? 0 }).toEqual({ round, translated: staffWon ? 0 : 1 });
      expect((await orderFiles(id, 'translation')).length).toBeLessThanOrEqual(1);
      await expectMoneyReconciled(round, order.payment_id, order.status, true);
    }
  });
});

describe('assigning an order', () => {
  it(`to three reviewers at once: every assignment audited, chained from the one before, ending where the order is (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const quote = (
        await t.rest
          .post(
            '/api/v1/quotes',
            { source_language: 'de', target_language: 'en', service_type: 'certified', file_ids: [fileId] },
            alice.key,
          )
          .expect(201)
      ).body.data;
      const id = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201)).body.data
        .id as string;
      const assign = (who: typeof ada) => () =>
        viaGraphQL(who.name)(t.gql(AssignOrderDocument, { orderId: id, staffUserId: who.id }, ada.token));
      const answers = await race(round, assign(ada), assign(grace), assign(alan));
      expectClearAnswers(round, answers);
      expect({ round, ok: answers.every((answer) => answer.ok) }).toEqual({ round, ok: true });

      const entries = await sql<{ details: { from_assignee_id: string | null; assignee_id: string | null } }>(
        `SELECT details FROM audit_entries WHERE resource_id = ? AND action = 'order.assign'`,
        [id],
      );
      expect({ round, entries: entries.length }).toEqual({ round, entries: 3 });
      // No lost update: each assignment saw the one before it, so the entries form one chain from nobody.
      const next = new Map(entries.map(({ details }) => [details.from_assignee_id, details.assignee_id]));
      expect({ round, links: next.size }).toEqual({ round, links: 3 });
      let current: string | null = null;
      for (let step = 0; step < 3; step++) current = next.get(current) ?? 'broken';
      expect({ round, last: current }).toEqual({ round, last: (await orderRow(id)).assignee_id });
      expect(new Set(entries.map(({ details }) => details.assignee_id))).toEqual(new Set([ada.id, grace.id, alan.id]));
    }
  });
});

// --- Interpretation bookings ----------------------------------------------------------------------------------

describe('interpretation bookings at the desk', () => {
  it(`confirming availability twice at once: one checkout, one e-mail, one interpreter (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await requestedBooking();
      const confirm = (interpreterName: string, token: string) => () =>
        viaGraphQL(interpreterName)(t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName }, token));
      const answers = await race(round, confirm('Ana Ruiz', ada.token), confirm('Bea Soto', grace.token));
      expectClearAnswers(round, answers);
      expect({ round, winners: answers.filter((answer) => answer.ok).length }).toEqual({ round, winners: 1 });
      expect(answers.find((answer) => !answer.ok)!.errors!.status).toEqual([
        'Cannot confirm availability while the status is awaiting_payment.',
      ]);

      const booking = await bookingRow(id);
      expect({ round, status: booking.status, interpreter: booking.interpreter_name }).toEqual({
        round,
        status: 'awaiting_payment',
        interpreter: answers.find((answer) => answer.ok)!.who,
      });
      const payments = await sql<{ id: string }>('SELECT id FROM payments WHERE description = ?', [
        `Interpretation booking ${booking.number}`,
      ]);
      expect({ round, payments: payments.map((payment) => payment.id) }).toEqual({
        round,
        payments: [booking.payment_id],
      });
      expect({
        round,
        mails: await emails('booking_awaiting_payment', booking.number),
        audit: (await auditActions(id))['booking.confirm_availability'],
      }).toEqual({ round, mails: 1, audit: 1 });
      await expectMoneyReconciled(round, booking.payment_id!, booking.status, false);
    }
  });

  it(`confirming availability while the client and staff cancel: cancelled once, a checkout only if confirmed first, and voided (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await requestedBooking();
      // The checkout is made before the booking is locked: one side or the other leaves later in some rounds.
      const [confirmDelay, cancelDelay] = stagger(round, [
        [0, 0],
        [10, 0],
        [0, 10],
        [0, 40],
      ]);
      const answers = await race(
        round,
        later(confirmDelay, () =>
          viaGraphQL('confirm')(
            t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, ada.token),
          ),
        ),
        later(cancelDelay, () => viaRest('client', `/api/v1/interpretation-bookings/${id}/cancel`)),
        later(cancelDelay, () =>
          viaGraphQL('staff')(
            t.gql(
              StaffCancelInterpretationBookingDocument,
              { id, reason: 'No interpreter after all', waiveFee: true },
              grace.token,
            ),
          ),
        ),
      );
      expectClearAnswers(round, answers);
      expect({ round, cancels: winners(answers, 'client', 'staff').length }).toEqual({ round, cancels: 1 });
      const booking = await bookingRow(id);
      expect(booking.status).toBe('cancelled');
      const confirmed = byWho(answers, 'confirm').ok;
      const payments = await count('SELECT count(*)::int AS n FROM payments WHERE description = ?', [
        `Interpretation booking ${booking.number}`,
      ]);
      expect({
        round,
        payments,
        linked: booking.payment_id !== null,
        mails: await emails('booking_awaiting_payment', booking.number),
      }).toEqual(
        confirmed ? { round, payments: 1, linked: true, mails: 1 } : { round, payments: 0, linked: false, mails: 0 },
      );
      if (confirmed) await expectMoneyReconciled(round, booking.payment_id!, booking.status, false);
      expect({ round, cancel: (await auditActions(id))['booking.cancel'] }).toEqual({ round, cancel: 1 });
    }
  });

  it(`completing a paid booking while staff cancel and hold it: completed and kept, or cancelled and refunded once (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await confirmedBooking();
      // The cancels here waive the policy's fee (D32; booking-terms.e2e.test.ts): a cancel refunds all, once.
      const answers = await race(
        round,
        () => viaGraphQL('complete')(t.gql(CompleteInterpretationBookingDocument, { id }, ada.token)),
        () =>
          viaGraphQL('cancel')(
            t.gql(
              StaffCancelInterpretationBookingDocument,
              { id, reason: 'The hearing moved', waiveFee: true },
              grace.token,
            ),
          ),
        () =>
          viaGraphQL('hold')(
            t.gql(HoldInterpretationBookingDocument, { id, reason: 'Checking the venue' }, alan.token),
          ),
      );
      expectClearAnswers(round, answers);
      expect({ round, endings: winners(answers, 'complete', 'cancel').length }).toEqual({ round, endings: 1 });
      const booking = await bookingRow(id);
      expect({ round, status: booking.status }).toEqual({
        round,
        status: byWho(answers, 'complete').ok ? 'completed' : 'cancelled',
      });
      if (byWho(answers, 'complete').ok)
        expect({ round, hold: byWho(answers, 'hold').ok }).toEqual({ round, hold: false });
      await expectAuditedAsAnswered(round, id, 'booking', answers, ['complete', 'cancel', 'hold']);
      expect({ round, held: await emails('on_hold', booking.number) }).toEqual({
        round,
        held: byWho(answers, 'hold').ok ? 1 : 0,
      });
      await expectMoneyReconciled(round, booking.payment_id!, booking.status, true);
    }
  });
});

describe('a staff cancel racing the client paying', () => {
  it.each(['order', 'booking'])(
    `a %s: cancelled and voided or refunded once, or paid with the cancel refused, never both (${ROUNDS} rounds)`,
    async (subject) => {
      for (let round = 0; round < ROUNDS; round++) {
        let id: string;
        let approvalUrl: string;
        if (subject === 'order') {
          ({ id, approvalUrl } = await unpaidOrder(t, alice, [fileId], 'standard', { source_language: 'de' }));
        } else {
          id = await requestedBooking();
          approvalUrl = (
            await t.gql(ConfirmInterpretationAvailabilityDocument, { id, interpreterName: 'Ana Ruiz' }, ada.token)
          ).data!.confirmInterpretationAvailability.payment.approvalUrl!;
        }
        const pay = () =>
          t.rest
            .raw()
            .post(`${approvalUrl.replace(t.config.appUrl, '')}/pay`)
            .type('form')
            .send({})
            .then((res): Answer => ({
              who: 'pay',
              ok: res.status === 200,
              http: res.status,
              code: String(res.status),
            }));
        const cancel = () =>
          viaGraphQL('cancel')(
            subject === 'order'
              ? t.gql(StaffCancelOrderDocument, { id, reason: 'Ordered by mistake' }, ada.token)
              : t.gql(
                  StaffCancelInterpretationBookingDocument,
                  { id, reason: 'Booked by mistake', waiveFee: true },
                  ada.token,
                ),
          );
        // The cancel leaves a little later in some rounds, to land before, during and after the capture.
        const answers = await race(round, pay, later(stagger(round, [0, 0, 5, 15]), cancel));
        // The checkout page answers the payer in its own terms (a closed checkout is not an error of ours): no 5xx.
        expectClearAnswers(round, answers, ['409', '422']);

        const row = subject === 'order' ? await orderRow(id) : await bookingRow(id);
        const payment = await paymentRow(row.payment_id!);
        const paidState = subject === 'order' ? 'processing' : 'confirmed';
        if (byWho(answers, 'cancel').ok) {
          expect({ round, status: row.status, payment: payment.status }).toEqual({
            round,
            status: 'cancelled',
            payment: payment.captured_cents ? 'refunded' : 'voided',
          });
        } else {
          // Only a capture under way refuses a staff cancel here.
          expect({
            round,
            status: row.status,
            payment: payment.status,
            refusal: byWho(answers, 'cancel').errors!.status,
          }).toEqual({
            round,
            status: paidState,
            payment: 'captured',
            refusal: ['The payment is being processed.'],
          });
        }
        const kept = row.status === 'cancelled' ? 0 : payment.captured_cents;
        expect({
          round,
          reconciled: payment.captured_cents === kept + payment.refunded_cents,
          captured: [0, payment.amount_cents].includes(payment.captured_cents),
        }).toEqual({ round, reconciled: true, captured: true });
        // Refunded once: by the cancel (captured first) or as a capture that landed after it, never both.
        const audit = { ...(await auditActions(payment.id)), ...(await auditActions(id)) };
        const refunded = payment.status === 'refunded' ? 1 : 0;
        expect({
          round,
          refunding: audit['payment.refunding'] ?? 0,
          refunded: audit['payment.refunded'] ?? 0,
          cancel: audit[`${subject}.cancel`] ?? 0,
        }).toEqual({
          round,
          refunding: refunded,
          refunded,
          cancel: row.status === 'cancelled' ? 1 : 0,
        });
        expect({ round, lateRefundMails: await emails('payment_refunded', row.number) }).toEqual({
          round,
          lateRefundMails: audit[`${subject}.late_capture_refunded`] ?? 0,
        });
      }
    },
  );
});

it('leaves no capture or refund unfinished', async () => {
  expect(await count(`SELECT count(*)::int AS n FROM payments WHERE status IN ('capturing', 'refunding')`, [])).toBe(0);
});
