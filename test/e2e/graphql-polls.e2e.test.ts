import { Account } from '../../src/domain/identity/account.entity';
import { FileType } from '../../src/domain/files/file.entity';
import { SuspendAccountDocument } from '../graphql/generated';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { gqlRaw, type RawGraphQLAnswer } from '../helpers/graphql-raw';
import { signInAs } from '../helpers/members';
import { insertAttachment, insertBooking, insertFile, insertOrder } from '../helpers/rows';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capturedLogs } from '../helpers/captured-logs';

/**
 * D23 on the GraphQL door: a document already read once (its reading kept, D36) that only polls one order or one
 * booking has its answer read with the caller's key, in the key's look-up, as a REST poll has
 * (src/api/graphql/polled-field.ts): one statement. Its answer and its charge are the ones read apart (the same
 * document seen for the first time, or with anything asked beside the poll), refusals included.
 */
const statements = new StatementLog();
const { logger, lines: logLines } = capturedLogs();
let t: TestApp;
let staff: string;
let alice: TestAccount;
let bob: TestAccount;
let orderId: string;
let bookingId: string;
beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: statements.record, logger });
  staff = await createStaffToken(t);
  [alice, bob] = [await createApprovedAccount(t, staff), await createApprovedAccount(t, staff)];
  const em = t.orm.em.fork();
  const account = await em.findOneOrFail(Account, { id: alice.id });
  const order = await insertOrder(em, account);
  for (const type of [FileType.SOURCE, FileType.TRANSLATION])
    await insertAttachment(em, await insertFile(em, account, { type }), { order });
  orderId = order.id;
  bookingId = (await insertBooking(em, account, {}, { paidAt: new Date('2030-01-02T03:04:05Z') })).id;
});
afterAll(() => t.close());

const ORDER_FIELDS = `id number status serviceType unitType unitCount totalCents currency reference
  addons { code totalCents } files { id type name } payment { provider paidAt refundedAt } dueAt createdAt updatedAt`;
const BOOKING_FIELDS = `id number status mode scheduledAt durationHours totalCents currency interpreterName
  payment { provider paidAt } createdAt updatedAt`;

/** The document's answer and the statements it ran. */
async function ask(query: string, token: string, variables?: Record<string, unknown>, operationName?: string) {
  const answer = await gqlRaw(t.rest.raw(), query, { token, variables, operationName });
  return { answer, statements: statements.of(answer) };
}

/** Whether the one statement read the polled answer with the key. */
const readAhead = (sql: string[]) => sql.length === 1 && sql[0].includes('polled_answer');

/** What a caller reads of the answer: its data and its errors' codes and paths (messages are compared as they are). */
const shown = ({ data, errors }: RawGraphQLAnswer) => ({
  data,
  errors: errors?.map(({ message, path, extensions }) => ({ message, path, code: extensions?.code })),
});

/** What an answer charged: its cost and what the budget has left after it. */
const charge = ({ extensions, headers }: RawGraphQLAnswer) => ({
  cost: extensions?.cost,
  left: Number(headers['x-ratelimit-remaining']),
});

describe.each([
  ['order', () => orderId, ORDER_FIELDS],
  ['interpretationBooking', () => bookingId, BOOKING_FIELDS],
])('%s(id) alone', (field, id, fields) => {
  const alone = `query ($id: ID!) { ${field}(id: $id) { ${fields} } }`;
  /** The same poll with a field beside it: its answer is read apart from the key's look-up. */
  const beside = `query ($id: ID!) { ${field}(id: $id) { ${fields} } __typename }`;
  const withoutTypename = (answer: RawGraphQLAnswer) => {
    const { __typename, ...data } = answer.data ?? {};
    return shown({ ...answer, data: answer.data && data });
  };

  it('is read apart the first time its text is seen, then in one statement, answered and charged alike', async () => {
    const text = `query Poll${field}($id: ID!) { ${field}(id: $id) { ${fields} } }`;
    const first = await ask(text, alice.key, { id: id() });
    const polled = await ask(text, alice.key, { id: id() });
    expect(first.statements).toHaveLength(2);
    expect(readAhead(polled.statements)).toBe(true);
    expect(polled.answer.data![field]).toMatchObject({ id: id() });
    expect(shown(polled.answer)).toEqual(shown(first.answer));
    // Each charged the same cost (D36), from the budget.
    const [before, after] = [charge(first.answer), charge(polled.answer)];
    expect(after.cost).toBe(before.cost);
    expect(after.left).toBeLessThan(before.left);
    expect(polled.answer.status).toBe(200);
  });

  it('answers what the poll read apart answers, with the id written out or a variable', async () => {
    await ask(alone, alice.key, { id: id() });
    const polled = await ask(alone, alice.key, { id: id() });
    const apart = await ask(beside, alice.key, { id: id() });
    expect(readAhead(polled.statements)).toBe(true);
    expect(apart.statements).toHaveLength(2);
    expect(shown(polled.answer)).toEqual(withoutTypename(apart.answer));
    const written = `{ ${field}(id: "${id()}") { ${fields} } }`;
    await ask(written, alice.key);
    const asWritten = await ask(written, alice.key);
    expect(readAhead(asWritten.statements)).toBe(true);
    expect(shown(asWritten.answer)).toEqual(shown(polled.answer));
  });

  it('answers NOT_FOUND for another account’s record, in one statement, as it is answered apart', async () => {
    await ask(alone, bob.key, { id: id() });
    const polled = await ask(alone, bob.key, { id: id() });
    expect(readAhead(polled.statements)).toBe(true);
    expect(polled.answer.data).toEqual({ [field]: null });
    expect(shown(polled.answer).errors).toEqual([expect.objectContaining({ code: 'NOT_FOUND', path: [field] })]);
    expect(shown(polled.answer)).toEqual(withoutTypename((await ask(beside, bob.key, { id: id() })).answer));
  });

  it('reads nothing ahead for a field that may not run, another operation, a malformed id or no key', async () => {
    const skipped = `query ($id: ID!) { ${field}(id: $id) @include(if: false) { id } }`;
    await ask(skipped, alice.key, { id: id() });
    const notRun = await ask(skipped, alice.key, { id: id() });
    expect(notRun.answer.data).toEqual({});
    expect(notRun.statements).toHaveLength(1); // the key's look-up alone
    expect(readAhead(notRun.statements)).toBe(false);

    const two = `query Other { __typename } query Poll($id: ID!) { ${field}(id: $id) { id } }`;
    await ask(two, alice.key, { id: id() }, 'Poll');
    const other = await ask(two, alice.key, { id: id() }, 'Other');
    expect(other.answer.data).toEqual({ __typename: 'Query' });
    expect(readAhead(other.statements)).toBe(false);
    expect(readAhead((await ask(two, alice.key, { id: id() }, 'Poll')).statements)).toBe(true);

    const malformed = await ask(alone, alice.key, { id: 'not-an-id' });
    expect(shown(malformed.answer).errors).toEqual([expect.objectContaining({ code: 'NOT_FOUND' })]);
    expect(readAhead(malformed.statements)).toBe(false);

    const member = await signInAs(t, staff, alice.email);
    const asMember = await ask(alone, member, { id: id() });
    expect(readAhead(asMember.statements)).toBe(false);
    expect(shown(asMember.answer)).toEqual(shown((await ask(alone, alice.key, { id: id() })).answer));
    const asStaff = await ask(alone, staff, { id: id() });
    expect(readAhead(asStaff.statements)).toBe(false);
    expect(asStaff.answer.data?.[field] ?? null).toBeNull();
    expect(asStaff.answer.errors?.map((error) => error.extensions.code)).toEqual(['FORBIDDEN']);
  });
});

it('refuses a suspended account’s key as it does apart, reading nothing of the record', async () => {
  const carol = await createApprovedAccount(t, staff);
  const em = t.orm.em.fork();
  const order = await insertOrder(em, await em.findOneOrFail(Account, { id: carol.id }));
  expect((await t.gql(SuspendAccountDocument, { id: carol.id }, staff)).errors).toBeUndefined();
  const alone = `query ($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`;
  await ask(alone, carol.key, { id: order.id });
  const polled = await ask(alone, carol.key, { id: order.id });
  const apart = await ask(`query ($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } __typename }`, carol.key, {
    id: order.id,
  });
  expect(JSON.stringify(polled.answer)).not.toContain(order.number);
  expect(polled.answer.errors?.[0]?.extensions?.code).toBe(apart.answer.errors?.[0]?.extensions?.code);
  expect(polled.answer.status).toBe(apart.answer.status);
});

it('answers a failed look-up 500 with nothing of the failure, uncharged, and logs it with the request’s id', async () => {
  const query = `query ($id: ID!) { order(id: $id) { id } }`;
  await ask(query, alice.key, { id: orderId });
  const real = t.services.authentication.resolvePolling.bind(t.services.authentication);
  t.services.authentication.resolvePolling = () =>
    Promise.reject(new Error('canceling statement due to statement timeout'));
  try {
    const res = await t.rest
      .raw()
      .post('/graphql')
      .set('Authorization', `Bearer ${alice.key}`)
      .set('X-Request-Id', 'graphql-failed-look-up')
      .send({ query, variables: { id: orderId } });
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('statement timeout');
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    const logged = logLines.filter(
      (line) => line.request_id === 'graphql-failed-look-up' && line.msg === 'graphql context failed',
    );
    expect(logged).toHaveLength(1);
  } finally {
    t.services.authentication.resolvePolling = real;
  }
});
