import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AssignOrderDocument,
  HoldOrderDocument,
  OrderMessagesDocument,
  OrdersWithMessagesDocument,
  PostOrderMessageDocument,
  PostStaffOrderMessageDocument,
  ReleaseOrderDocument,
  SentEmailsDocument,
  StaffCancelOrderDocument,
  StaffOrderMessagesDocument,
  StaffOrdersWithMessagesDocument,
} from '../graphql/generated';
import { createStaffMember } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { apiWordingIn } from '../helpers/mail';
import { createApprovedAccount, type TestAccount } from '../helpers/fixtures';
import { memberSession, signInAs } from '../helpers/members';
import { paidOrder } from '../helpers/orders';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D30: an order's conversation between the client and the desk, on both doors and the staff side: who may write,
 * what is refused, who is e-mailed, the hold that waits for the client and the answer that releases it, also while
 * staff release or cancel the same order at the same instant.
 */
type Staff = Awaited<ReturnType<typeof createStaffMember>>;
let t: TestApp;
let admin: Staff;
let desk: Staff;
let translator: Staff;
let alice: TestAccount;
let bob: TestAccount;
let aliceAdmin: string;
let viewer: string;
let member: { id: string; email: string; session: string };
let fileId: string;
const statements = new StatementLog();

beforeAll(async () => {
  // No workers: a paid order stays processing, where staff may hold it.
  t = await startTestApp({ workers: false, onQuery: statements.record });
  admin = await createStaffMember(t, { role: StaffRole.ADMIN, name: 'Ada Admin' });
  desk = await createStaffMember(t, { role: StaffRole.DESK, name: 'Dora Desk' });
  translator = await createStaffMember(t, { role: StaffRole.TRANSLATOR, name: 'Tomás Translator' });
  alice = await createApprovedAccount(t, admin.token);
  bob = await createApprovedAccount(t, admin.token);
  aliceAdmin = await signInAs(t, admin.token, alice.email);
  viewer = (await memberSession(t, admin.token, aliceAdmin, 'VIEWER')).session;
  member = await memberSession(t, admin.token, aliceAdmin, 'MEMBER');
  fileId = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(100)] }), 'acta.docx')).id;
}, 120_000);
afterAll(() => t.close());

const newOrder = () => paidOrder(t, alice, [fileId]);
const messagesPath = (id: string) => `/api/v1/orders/${id}/messages`;
const post = (id: string, body: unknown, token = alice.key) => t.rest.post(messagesPath(id), body, token);
const restMessages = async (id: string, query = '') =>
  (await t.rest.get(`${messagesPath(id)}${query}`, alice.key).expect(200)).body;
const order = async (id: string) => (await t.rest.get(`/api/v1/orders/${id}`, alice.key).expect(200)).body.data;
/** The message e-mails sent to `to`, newest first; about one order when its number is given. */
const mailsTo = async (to: string, number?: string) =>
  (await t.gql(SentEmailsDocument, { to, perPage: 100 }, admin.token)).data!.sentEmails.items.filter(
    (mail) => mail.kind === 'order_message' && (!number || mail.subject.includes(number)),
  );
const code = (answer: { errors?: { extensions?: { code?: string } }[] }) => answer.errors?.[0]?.extensions?.code;
const fieldErrors = (answer: { errors?: { extensions?: { errors?: Record<string, string[]> } }[] }) =>
  answer.errors?.[0]?.extensions?.errors;
const sql = (statement: string, params: unknown[]) =>
  t.orm.em.fork().getConnection().execute<Record<string, unknown>[]>(statement, params);
const messageCount = async (orderId: string) =>
  (await sql(`select count(*)::int as n from order_messages where order_id = ?`, [orderId]))[0].n;
const audit = (orderId: string) =>
  sql(
    `select action, actor_id, from_state, to_state from audit_entries where resource_id = ? and action in ('order.hold', 'order.release', 'order.cancel') order by created_at, id`,
    [orderId],
  );
const staffWrites = (orderId: string, text: string, token: string, waitForClient?: boolean) =>
  t.gql(PostStaffOrderMessageDocument, { orderId, text, waitForClient }, token);

describe('the client writes (REST and GraphQL)', () => {
  it('answers the message written, lists the conversation newest first a page at a time, the same on GraphQL', async () => {
    const id = await newOrder();
    const first = await post(id, { text: '  Is the apostille page translated too?  ' }).expect(201);
    expect(first.headers.location).toBe(`${t.config.appUrl}${messagesPath(id)}`);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      author: { kind: 'client', name: 'Smith & Partners LLP' },
      text: 'Is the apostille page translated too?',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    await post(id, { text: 'Second question.' }, member.session).expect(201);
    const written = await t.gql(PostOrderMessageDocument, { orderId: id, text: 'Third, via GraphQL.' }, alice.key);
    expect(written.data!.postOrderMessage).toMatchObject({ text: 'Third, via GraphQL.', author: { kind: 'CLIENT' } });

    const page = await restMessages(id, '?per_page=2');
    expect(page.data.map((message: { text: string }) => message.text)).toEqual([
      'Third, via GraphQL.',
      'Second question.',
    ]);
    expect(page.data[1].author).toEqual({ kind: 'client', name: 'Pat member' });
    expect(page.meta).toMatchObject({ total: 3, per_page: 2, last_page: 2 });
    expect(page.links.next).toBe(`${t.config.appUrl}${messagesPath(id)}?per_page=2&page=2`);
    const second = await restMessages(id, '?per_page=2&page=2');
    expect(second.data.map((message: { text: string }) => message.text)).toEqual([
      'Is the apostille page translated too?',
    ]);

    const graphql = (await t.gql(OrderMessagesDocument, { id, perPage: 2, page: 2 }, alice.key)).data!.order!;
    expect(graphql.messages.items.map((message) => message.text)).toEqual(['Is the apostille page translated too?']);
    expect(graphql.messages.pageInfo).toEqual({ page: 2, perPage: 2, total: 3, lastPage: 2 });
    // A viewer reads the conversation.
    expect((await t.rest.get(messagesPath(id), viewer).expect(200)).body.meta.total).toBe(3);
  });

  it('refuses empty text, text over 4,000 characters, a viewer and another account with nothing written', async () => {
    const id = await newOrder();
    expect((await post(id, { text: 'x'.repeat(4000) }).expect(201)).body.data.text).toHaveLength(4000);
    const refusals: [unknown, Record<string, string[]>][] = [
      [{}, { text: ['The text field is required.'] }],
      [{ text: '   ' }, { text: ['The text field is required.'] }],
      [{ text: 'x'.repeat(4001) }, { text: ['The text field must not be greater than 4000 characters.'] }],
      [{ text: 42 }, { text: ['The text field must be a string.'] }],
    ];
    for (const [body, errors] of refusals) expect((await post(id, body).expect(422)).body.errors).toEqual(errors);
    expect((await post(id, { text: 'Can I?' }, viewer).expect(403)).body).toEqual({
      message: 'This action is not allowed for your role.',
    });
    // Another account's order, and an id that is none, read as unknown.
    for (const other of [id, 'not-an-id']) {
      expect((await post(other, { text: 'Hello' }, bob.key).expect(404)).body).toEqual({ message: 'Not found.' });
      await t.rest.get(messagesPath(other), bob.key).expect(404);
    }
    await t.rest.get(`${messagesPath(id)}?per_page=101`, alice.key).expect(422);

    const tooLong = await t.gql(PostOrderMessageDocument, { orderId: id, text: 'x'.repeat(4001) }, alice.key);
    expect(fieldErrors(tooLong)).toEqual({ text: ['The text field must not be greater than 4000 characters.'] });
    expect(fieldErrors(await t.gql(PostOrderMessageDocument, { orderId: id, text: '' }, alice.key))).toEqual({
      text: ['The text field is required.'],
    });
    expect(code(await t.gql(PostOrderMessageDocument, { orderId: id, text: 'Can I?' }, viewer))).toBe('FORBIDDEN');
    const theirs = await t.gql(PostOrderMessageDocument, { orderId: id, text: 'Hello' }, bob.key);
    expect(code(theirs)).toBe('NOT_FOUND');
    expect((await t.gql(OrderMessagesDocument, { id }, bob.key)).data!.order).toBeNull();
    expect(await messageCount(id)).toBe(1);
  });

  it('e-mails the desk when the order is assigned to no one, and the assignee once it is, with the instructions', async () => {
    const quote = await t.rest
      .post(
        '/api/v1/quotes',
        {
          source_language: 'es',
          target_language: 'en',
          service_type: 'standard',
          file_ids: [fileId],
          instructions: 'Keep "Juzgado de Familia" untranslated.',
        },
        alice.key,
      )
      .expect(201);
    const converted = await t.rest.post(`/api/v1/quotes/${quote.body.data.id}/convert`, undefined, alice.key);
    const { id, number } = converted.body.data;
    const text = '<script>alert(1)</script> & the second page?';
    await post(id, { text }).expect(201);
    for (const staff of [admin, desk]) {
      const [mail] = await mailsTo(staff.email, number);
      expect(mail.subject).toBe(`Order ${number}: a message from the client`);
      // Plain text: the client's words as written, and the order's instructions for whoever reads it.
      expect(mail.text).toContain(text);
      expect(mail.text).toContain('Keep "Juzgado de Familia" untranslated.');
      // Answered on the order's page of the console, not through the API.
      expect(mail.text).toContain(
        `Answer on the order's page in the staff console: ${t.config.appUrl}/console/orders/${number}`,
      );
      expect(apiWordingIn(mail.text!)).toEqual([]);
    }
    expect(await mailsTo(translator.email, number)).toEqual([]);

    await t.gql(AssignOrderDocument, { orderId: id, staffUserId: translator.id }, admin.token);
    await post(id, { text: 'One more thing.' }).expect(201);
    expect((await mailsTo(translator.email, number)).map((mail) => mail.text)).toEqual([
      expect.stringContaining('One more thing.'),
    ]);
    expect(await mailsTo(desk.email, number)).toHaveLength(1);
  });

  it('reads the messages of a page of orders in one statement, on the partner and the staff door', async () => {
    for (let n = 0; n < 3; n++) await post(await newOrder(), { text: `Order note ${n}` }).expect(201);
    for (const [document, token] of [
      [OrdersWithMessagesDocument, alice.key],
      [StaffOrdersWithMessagesDocument, admin.token],
    ] as const) {
      const answer = await t.rest
        .raw()
        .post('/graphql')
        .set('Authorization', `Bearer ${token}`)
        .send({ query: (await import('graphql')).print(document), variables: { perPage: 10 } })
        .expect(200);
      expect(answer.body.errors).toBeUndefined();
      const items = (answer.body.data.orders ?? answer.body.data.staffOrders).items;
      expect(
        items.filter((item: { messages: { pageInfo: { total: number } } }) => item.messages.pageInfo.total > 0).length,
      ).toBeGreaterThanOrEqual(3);
      expect(statements.of(answer).filter((statement) => statement.includes('order_messages'))).toHaveLength(1);
    }
  });
});

describe('staff write (postStaffOrderMessage)', () => {
  it('reach the account and the member who placed the order; a translator writes on their own assignments only', async () => {
    const quote = await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [fileId] },
        member.session,
      )
      .expect(201);
    const id = (await t.rest.post(`/api/v1/quotes/${quote.body.data.id}/convert`, undefined, member.session)).body.data
      .id;
    const written = await staffWrites(id, 'We received your files.', desk.token);
    expect(written.data!.postStaffOrderMessage.author).toEqual({ kind: 'STAFF', name: 'Dora Desk' });
    for (const to of [alice.email, member.email]) {
      const [mail] = (await mailsTo(to)).filter((sent) => sent.text!.includes('We received your files.'));
      // A person answers on the order's page in the portal: the e-mail names no API.
      expect(mail.text).toContain(
        `Answer on the order's page in the client portal: ${t.config.appUrl}/portal/orders/${id}`,
      );
      expect(apiWordingIn(mail.text!)).toEqual([]);
    }
    expect((await restMessages(id)).data[0]).toMatchObject({
      author: { kind: 'staff', name: 'Dora Desk' },
      text: 'We received your files.',
    });

    const refused = await staffWrites(id, 'Hello from a stranger.', translator.token);
    expect([code(refused), refused.errors![0].message]).toEqual(['FORBIDDEN', 'The order is not assigned to you.']);
    expect(await messageCount(id)).toBe(1);
    await t.gql(AssignOrderDocument, { orderId: id, staffUserId: translator.id }, admin.token);
    expect(code(await staffWrites(id, 'Your translator here.', translator.token))).toBeUndefined();
    const seen = (await t.gql(StaffOrderMessagesDocument, { id }, translator.token)).data!.staffOrder!;
    expect(seen.messages.items.map((message) => message.text)).toEqual([
      'Your translator here.',
      'We received your files.',
    ]);

    expect(fieldErrors(await staffWrites(id, 'x'.repeat(4001), desk.token))).toEqual({
      text: ['The text field must not be greater than 4000 characters.'],
    });
    expect(fieldErrors(await staffWrites(id, ' ', desk.token))).toEqual({ text: ['The text field is required.'] });
    expect(code(await staffWrites('00000000-0000-4000-8000-000000000000', 'Hi', desk.token))).toBe('NOT_FOUND');
    expect(code(await t.gql(PostStaffOrderMessageDocument, { orderId: id, text: 'Hi' }, alice.key))).toBe('FORBIDDEN');
    expect(await messageCount(id)).toBe(2);
  });
});

describe('waiting for the client (waitForClient)', () => {
  it('holds the order awaiting_client, and the client’s next message releases it where it was, audited', async () => {
    const id = await newOrder();
    expect((await order(id)).status).toBe('processing');
    expect(code(await staffWrites(id, 'Which spelling of the surname?', desk.token, true))).toBeUndefined();
    expect(await order(id)).toMatchObject({ status: 'on_hold', hold_reason: 'awaiting_client' });
    const [asked] = (await mailsTo(alice.email)).filter((mail) => mail.text!.includes('Which spelling'));
    expect(asked.text).toContain('is on hold until you answer');
    // The message tells the client; no second, generic hold e-mail.
    const holds = (await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, admin.token)).data!.sentEmails
      .items;
    expect(holds.filter((mail) => mail.kind === 'on_hold')).toEqual([]);

    await post(id, { text: 'GARCÍA, with the accent.' }).expect(201);
    expect(await order(id)).toMatchObject({ status: 'processing', hold_reason: null });
    expect(await audit(id)).toEqual([
      { action: 'order.hold', actor_id: desk.id, from_state: 'processing', to_state: 'on_hold' },
      { action: 'order.release', actor_id: alice.id, from_state: 'on_hold', to_state: 'processing' },
    ]);
    expect((await mailsTo(desk.email)).map((mail) => mail.text)).toContainEqual(
      expect.stringContaining('The order was waiting for this answer: it is processing again.'),
    );
    // Only the answer to a question releases: a further message changes nothing.
    await post(id, { text: 'Thanks!' }).expect(201);
    expect((await order(id)).status).toBe('processing');
  });

  it('leaves a hold for another reason to staff, waits for the client from a held order, and refuses a finished one', async () => {
    const id = await newOrder();
    await t.gql(HoldOrderDocument, { id, reason: 'The second page is unreadable.' }, desk.token);
    await post(id, { text: 'Here is what it says.' }).expect(201);
    expect(await order(id)).toMatchObject({ status: 'on_hold', hold_reason: 'The second page is unreadable.' });

    expect(code(await staffWrites(id, 'Please send a clearer scan.', desk.token, true))).toBeUndefined();
    expect(await order(id)).toMatchObject({ status: 'on_hold', hold_reason: 'awaiting_client' });
    await post(id, { text: 'Sent by post.' }).expect(201);
    expect((await order(id)).status).toBe('processing');

    await t.gql(StaffCancelOrderDocument, { id, reason: 'The client withdrew.' }, desk.token);
    const before = await messageCount(id);
    const refused = await staffWrites(id, 'Still there?', desk.token, true);
    expect(fieldErrors(refused)).toEqual({ status: ['Cannot hold the order while the status is cancelled.'] });
    expect(await messageCount(id)).toBe(before);
    // A message without waiting is fine on a finished order.
    expect(code(await staffWrites(id, 'Your refund is on its way.', desk.token))).toBeUndefined();
  });

  const ROUNDS = 6;

  it('keeps one story when the client’s releasing answer races a staff cancel', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await newOrder();
      await staffWrites(id, 'Which spelling?', desk.token, true);
      // Each leaves first in turn: whoever takes the order's lock first wins, the other sees what it left.
      const answering = () => post(id, { text: `Answer ${round}` }).then((res) => res);
      const cancelling = () => t.gql(StaffCancelOrderDocument, { id, reason: 'Withdrawn.' }, desk.token);
      const [reply, cancel] =
        round % 2
          ? await Promise.all([answering(), cancelling()])
          : await Promise.all([cancelling(), answering()]).then(([c, r]) => [r, c] as const);
      expect({ round, reply: reply.status, cancel: cancel.errors }).toEqual({ round, reply: 201, cancel: undefined });
      expect((await order(id)).status).toBe('cancelled');
      const trail = await audit(id);
      // Either the answer released the order and staff cancelled it from processing, or the cancel came first and
      // the answer, on a cancelled order, released nothing.
      expect([
        [
          ['order.hold', 'processing'],
          ['order.release', 'on_hold'],
          ['order.cancel', 'processing'],
        ],
        [
          ['order.hold', 'processing'],
          ['order.cancel', 'on_hold'],
        ],
      ]).toContainEqual(trail.map((row) => [row.action, row.from_state]));
      expect(await messageCount(id)).toBe(2);
    }
  });

  it('releases once when the client’s answer races a staff release', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await newOrder();
      await staffWrites(id, 'Which spelling?', desk.token, true);
      const [reply, release] = await Promise.all([
        post(id, { text: `Answer ${round}` }),
        t.gql(ReleaseOrderDocument, { id }, desk.token),
      ]);
      expect(reply.status).toBe(201);
      // The staff release either released it or found it released already (422 under status).
      expect([undefined, { status: ['Cannot release the order while the status is processing.'] }]).toContainEqual(
        fieldErrors(release),
      );
      expect((await order(id)).status).toBe('processing');
      expect((await audit(id)).filter((row) => row.action === 'order.release')).toHaveLength(1);
    }
  });
});
