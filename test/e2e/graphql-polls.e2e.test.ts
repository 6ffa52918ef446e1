import { Account } from '../../src/domain/identity/account.entity';
import { FileType } from '../../src/domain/files/file.entity';
import { SuspendAccountDocument } from '../graphql/generated';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { gqlRaw, type RawGraphQLAnswer } from '../helpers/graphql-raw';
import { signInAs } from '../helpers/members';
import { insertAttachment, insertBooking, insertFile, insertOrder } from '../helpers/rows';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D23 on the GraphQL door: a document that only polls one order or one booking has its answer read with the caller's
 * key, in the key's look-up, as a REST poll has (src/api/graphql/polled-field.ts): one statement. Its answer is the one
 * read apart (a document asking anything beside the poll), refusals included.
 */
const statements = new StatementLog();
let t: TestApp;
let staff: string;
let alice: TestAccount;
let bob: TestAccount;
let orderId: string;
let bookingId: string;
beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: statements.record });
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
async function ask(query: string, token: string, variables?: Record<string, unknown>) {
  const answer = await gqlRaw(t.rest.raw(), query, { token, variables });
  return { answer, statements: statements.of(answer).length };
}

/** What a caller reads of the answer: its data and its errors' codes and paths (messages are compared as they are). */
const shown = ({ data, errors }: RawGraphQLAnswer) => ({
  data,
  errors: errors?.map(({ message, path, extensions }) => ({ message, path, code: extensions?.code })),
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

  it('costs one statement and answers what the poll read apart answers', async () => {
    const polled = await ask(alone, alice.key, { id: id() });
    const apart = await ask(beside, alice.key, { id: id() });
    expect(polled.statements).toBe(1);
    expect(apart.statements).toBe(2);
    expect(polled.answer.data![field]).toMatchObject({ id: id() });
    expect(shown(polled.answer)).toEqual(withoutTypename(apart.answer));
  });

  it('reads the id written in the document as it reads a variable', async () => {
    const written = await ask(`{ ${field}(id: "${id()}") { ${fields} } }`, alice.key);
    expect(written.statements).toBe(1);
    expect(shown(written.answer)).toEqual(shown((await ask(alone, alice.key, { id: id() })).answer));
  });

  it('answers NOT_FOUND for another account’s record, in one statement, as it is answered apart', async () => {
    const polled = await ask(alone, bob.key, { id: id() });
    expect(polled.statements).toBe(1);
    expect(polled.answer.data).toEqual({ [field]: null });
    expect(shown(polled.answer).errors).toEqual([expect.objectContaining({ code: 'NOT_FOUND', path: [field] })]);
    expect(shown(polled.answer)).toEqual(withoutTypename((await ask(beside, bob.key, { id: id() })).answer));
  });

  it('reads nothing ahead for a field that may not run, a malformed id or a credential that is not a key', async () => {
    const skipped = await ask(`query ($id: ID!) { ${field}(id: $id) @include(if: false) { id } }`, alice.key, {
      id: id(),
    });
    expect(skipped.answer.data).toEqual({});
    expect(skipped.statements).toBe(1); // the key's look-up alone
    const malformed = await ask(alone, alice.key, { id: 'not-an-id' });
    expect(shown(malformed.answer).errors).toEqual([expect.objectContaining({ code: 'NOT_FOUND' })]);
    const member = await signInAs(t, staff, alice.email);
    const asMember = await ask(alone, member, { id: id() });
    expect(shown(asMember.answer)).toEqual(shown((await ask(alone, alice.key, { id: id() })).answer));
    const asStaff = await ask(alone, staff, { id: id() });
    expect(asStaff.answer.data?.[field] ?? null).toBeNull();
    expect(asStaff.answer.errors?.length).toBeGreaterThan(0);
  });
});

it('refuses a suspended account’s key as it does apart, reading nothing of the record', async () => {
  const carol = await createApprovedAccount(t, staff);
  const em = t.orm.em.fork();
  const order = await insertOrder(em, await em.findOneOrFail(Account, { id: carol.id }));
  expect((await t.gql(SuspendAccountDocument, { id: carol.id }, staff)).errors).toBeUndefined();
  const polled = await ask(`query ($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`, carol.key, { id: order.id });
  const apart = await ask(`query ($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } __typename }`, carol.key, {
    id: order.id,
  });
  expect(JSON.stringify(polled.answer)).not.toContain(order.number);
  expect(polled.answer.errors?.[0]?.extensions?.code).toBe(apart.answer.errors?.[0]?.extensions?.code);
  expect(polled.answer.status).toBe(apart.answer.status);
});
