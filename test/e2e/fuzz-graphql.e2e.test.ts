import fc from 'fast-check';
import type { Response } from 'supertest';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { docx, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import {
  FUZZ_SEED,
  IMPOSSIBLE_DATES,
  badCredential,
  hostileString,
  hostileValue,
  undecodableBody,
  unstorableText,
} from '../helpers/hostile';
import { postPieces } from '../helpers/raw-post';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 11 / D14, D25: the main GraphQL operations fed generated variables, good and hostile, and the request
 * mistakes clients make. A client mistake is never INTERNAL_SERVER_ERROR and never a 5xx.
 */
type Who = 'alice' | 'staff' | 'admin';
interface Operation {
  name: string;
  who: Who;
  query: string;
  /** Variables built with `v`: good values only, or good and hostile mixed. */
  variables: (v: Values) => fc.Arbitrary<Record<string, unknown>>;
  /** Text arguments and the field name the service reports them under (D2's snake_case). */
  text?: Record<string, string>;
}

const MIN_REQUESTS = 1000;
let sent = 0;
let t: TestApp;
let alice: TestAccount;
const tokens = {} as Record<Who, string>;
const ids: Record<'file' | 'quote' | 'order' | 'booking' | 'account', string[]> = {
  file: [],
  quote: [],
  order: [],
  booking: [],
  account: [],
};

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  tokens.staff = await createStaffToken(t);
  tokens.admin = await createStaffToken(t, StaffRole.ADMIN);
  alice = await createApprovedAccount(t, tokens.staff);
  tokens.alice = alice.key;
  ids.account.push(alice.id);
  ids.file.push((await uploadFile(t, alice.key, await docx({ paragraphs: [words(300)] }), 'a.docx')).id);
  const quote = async () =>
    (
      await t.rest
        .post(
          '/api/v1/quotes',
          { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: ids.file },
          alice.key,
        )
        .expect(201)
    ).body.data.id as string;
  ids.quote.push(await quote(), await quote());
  ids.order.push(
    (await t.rest.post(`/api/v1/quotes/${await quote()}/convert`, {}, alice.key).expect(201)).body.data.id,
  );
  const booking = {
    source_language: 'es',
    target_language: 'en',
    mode: 'video_remote',
    scheduled_at: '2031-01-15T10:00:00Z',
    duration_hours: 2,
  };
  ids.booking.push((await t.rest.post('/api/v1/interpretation-bookings', booking, alice.key).expect(201)).body.data.id);
});
afterAll(() => t.close());

interface Values {
  /** A good value, or (when hostile) anything at all: wrong types included, which GraphQL's own coercion must refuse. */
  either(good: fc.Arbitrary<unknown>): fc.Arbitrary<unknown>;
  id(kind: keyof typeof ids): fc.Arbitrary<unknown>;
  text(...good: string[]): fc.Arbitrary<unknown>;
  page: { page: fc.Arbitrary<unknown>; perPage: fc.Arbitrary<unknown> };
}

function values(hostile: boolean): Values {
  const either = (good: fc.Arbitrary<unknown>) =>
    hostile ? fc.oneof({ weight: 3, arbitrary: good }, { weight: 2, arbitrary: hostileValue }) : good;
  return {
    either,
    id: (kind) => either(fc.oneof(fc.constantFrom(...ids[kind]), fc.uuid())),
    text: (...good) => either(fc.constantFrom(...good)),
    page: {
      page: optional(either(fc.integer({ min: 1, max: 3 }))),
      perPage: optional(either(fc.integer({ min: 1, max: 100 }))),
    },
  };
}

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const operations: Operation[] = [
  {
    name: 'file',
    who: 'alice',
    query: 'query($id: ID!) { file(id: $id) { id name } }',
    variables: (v) => fc.record({ id: v.id('file') }),
  },
  {
    name: 'order',
    who: 'alice',
    query: 'query($id: ID!) { order(id: $id) { id status } }',
    variables: (v) => fc.record({ id: v.id('order') }),
  },
  {
    name: 'quotes',
    who: 'alice',
    query:
      'query($status: QuoteStatus, $page: Int, $perPage: Int) { quotes(status: $status, page: $page, perPage: $perPage) { pageInfo { total } } }',
    variables: (v) => fc.record({ status: optional(v.text('PRICED', 'EXPIRED', 'priced')), ...v.page }),
  },
  {
    name: 'createQuote',
    who: 'alice',
    query: 'mutation($input: CreateQuoteInput!) { createQuote(input: $input) { id totalCents reference } }',
    variables: (v) =>
      fc.record({
        input: v.either(
          fc.record(
            {
              sourceLanguage: v.text('es', 'pt-br'),
              targetLanguage: v.text('en'),
              serviceType: v.text('STANDARD', 'CERTIFIED'),
              fileIds: v.either(fc.constant(ids.file)),
              unitCount: v.either(fc.integer({ min: 1, max: 9 })),
              addons: v.either(
                fc.array(
                  fc.record({
                    code: v.text('rush_2h', 'hard_copy'),
                    quantity: optional(v.either(fc.integer({ min: 1, max: 10 }))),
                  }),
                  { maxLength: 2 },
                ),
              ),
              reference: v.text('Matter 114'),
            },
            { requiredKeys: ['sourceLanguage', 'targetLanguage', 'serviceType', 'fileIds'] },
          ),
        ),
      }),
    text: { sourceLanguage: 'source_language', targetLanguage: 'target_language', reference: 'reference' },
  },
  {
    name: 'createInterpretationBooking',
    who: 'alice',
    query:
      'mutation($input: CreateInterpretationBookingInput!) { createInterpretationBooking(input: $input) { id scheduledAt } }',
    variables: (v) =>
      fc.record({
        input: v.either(
          fc.record(
            {
              sourceLanguage: v.text('es'),
              targetLanguage: v.text('en'),
              mode: v.text('VIDEO_REMOTE', 'ON_SITE'),
              setting: optional(v.text('COURT')),
              scheduledAt: v.either(fc.constantFrom('2031-03-01T09:30:00-05:00', '2028-02-29T12:00:00+01:00')),
              durationHours: v.either(fc.constantFrom(0.5, 2, 12.5)),
              location: optional(v.text('100 Court St')),
              videoPlatformNotes: optional(v.text('Zoom\nroom 2')),
              reference: optional(v.text('Deposition')),
            },
            { requiredKeys: ['sourceLanguage', 'targetLanguage', 'mode', 'scheduledAt', 'durationHours'] },
          ),
        ),
      }),
    text: {
      location: 'location',
      videoPlatformNotes: 'video_platform_notes',
      reference: 'reference',
      scheduledAt: 'scheduled_at',
    },
  },
  {
    name: 'convertQuote',
    who: 'alice',
    query:
      'mutation($id: ID!, $redirectUrl: String) { convertQuote(id: $id, redirectUrl: $redirectUrl) { approvalUrl } }',
    variables: (v) => fc.record({ id: v.id('quote'), redirectUrl: optional(v.text('https://portal.example/done')) }),
  },
  {
    name: 'cancelOrder',
    who: 'alice',
    query: 'mutation($id: ID!) { cancelOrder(id: $id) { status } }',
    variables: (v) => fc.record({ id: v.id('order') }),
  },
  {
    name: 'deleteFile',
    who: 'alice',
    query: 'mutation($id: ID!) { deleteFile(id: $id) }',
    variables: (v) => fc.record({ id: v.id('file') }),
  },
  {
    name: 'createAccount',
    who: 'staff',
    query: 'mutation($name: String!, $email: String!) { createAccount(name: $name, email: $email) { id } }',
    variables: (v) =>
      fc.record({ name: v.text('Smith & Partners LLP'), email: v.either(fc.uuid().map((u) => `${u}@example.test`)) }),
    text: { name: 'name', email: 'email' },
  },
  {
    name: 'sentEmails',
    who: 'staff',
    query:
      'query($to: String, $page: Int, $perPage: Int) { sentEmails(to: $to, page: $page, perPage: $perPage) { items { subject } } }',
    variables: (v) => fc.record({ to: optional(v.text('it@smith.example')), ...v.page }),
    text: { to: 'to' },
  },
  {
    name: 'auditLog',
    who: 'staff',
    query:
      'query($resourceId: ID, $page: Int, $perPage: Int) { auditLog(resourceId: $resourceId, page: $page, perPage: $perPage) { items { action } } }',
    variables: (v) =>
      fc.record({ resourceId: optional(v.either(fc.constantFrom('rush_2h', ...ids.account))), ...v.page }),
    text: { resourceId: 'resource_id' },
  },
  {
    name: 'staffOrders',
    who: 'staff',
    query:
      'query($accountId: ID, $status: OrderStatus) { staffOrders(accountId: $accountId, status: $status) { pageInfo { total } } }',
    variables: (v) => fc.record({ accountId: optional(v.id('account')), status: optional(v.text('PROCESSING')) }),
  },
  {
    name: 'confirmInterpretationAvailability',
    who: 'staff',
    query:
      'mutation($id: ID!, $interpreterName: String!) { confirmInterpretationAvailability(id: $id, interpreterName: $interpreterName) { status } }',
    variables: (v) => fc.record({ id: v.id('booking'), interpreterName: v.text('María López') }),
    text: { interpreterName: 'interpreter_name' },
  },
  {
    name: 'holdOrder',
    who: 'staff',
    query: 'mutation($id: ID!, $reason: String!) { holdOrder(id: $id, reason: $reason) { status } }',
    variables: (v) => fc.record({ id: v.id('order'), reason: v.text('Unreadable scan') }),
    text: { reason: 'reason' },
  },
  {
    name: 'updateRate',
    who: 'admin',
    query:
      'mutation($priceCents: Int!, $addonCode: String) { updateRate(priceCents: $priceCents, addonCode: $addonCode) { addons { code } } }',
    variables: (v) =>
      fc.record({
        priceCents: v.either(fc.integer({ min: 0, max: 5000 })),
        addonCode: optional(v.text('rush_2h', 'nope')),
      }),
    text: { addonCode: 'addon_code' },
  },
];

interface GraphQLError {
  message: string;
  extensions?: { code?: string; errors?: unknown };
}

async function post(who: Who | 'none', payload: unknown, headers: Record<string, string> = {}): Promise<Response> {
  sent += 1;
  let test = t.rest.raw().post('/graphql').set(headers);
  if (who !== 'none') test = test.set('Authorization', `Bearer ${tokens[who]}`);
  return typeof payload === 'string'
    ? test.set('Content-Type', 'application/json').send(payload)
    : test.send(payload as object);
}

/** D14: below 500; every error coded, none INTERNAL_SERVER_ERROR; `extensions.errors`, when given, maps fields to messages. */
function assertClientMistakeHandled(res: Response): GraphQLError[] {
  if (res.status >= 500) throw new Error(`answered ${res.status}: ${res.text.slice(0, 300)}`);
  const errors = (res.body?.errors ?? []) as GraphQLError[];
  if (!res.body?.errors && !res.body?.data && !res.body?.message)
    throw new Error(`no GraphQL or D2 body: ${res.text.slice(0, 300)}`);
  for (const error of errors) {
    const code = error.extensions?.code;
    if (typeof code !== 'string' || code === 'INTERNAL_SERVER_ERROR')
      throw new Error(`error coded ${code}: ${JSON.stringify(error).slice(0, 300)}`);
    const map = error.extensions?.errors;
    const wellFormed = (value: unknown) =>
      Array.isArray(value) && value.length > 0 && value.every((message) => typeof message === 'string');
    if (map !== undefined && (typeof map !== 'object' || map === null || !Object.values(map).every(wellFormed))) {
      throw new Error(`extensions.errors is not D2's field map: ${JSON.stringify(error)}`);
    }
  }
  return errors;
}

describe('GraphQL under generated input (D14, D25)', () => {
  it.each(operations.map((operation) => [operation.name, operation] as const))(
    '%s never answers INTERNAL_SERVER_ERROR',
    async (_name, operation) => {
      await fc.assert(
        fc.asyncProperty(
          operation.variables(values(true)),
          fc.constantFrom<Who | 'none'>(operation.who, operation.who, operation.who, 'none', 'alice'),
          async (variables, who) => {
            const res = await post(who, { query: operation.query, variables });
            try {
              assertClientMistakeHandled(res);
            } catch (error) {
              throw new Error(
                `${operation.name} ${JSON.stringify(variables).slice(0, 300)}: ${(error as Error).message}`,
                { cause: error },
              );
            }
          },
        ),
        { seed: FUZZ_SEED, numRuns: 70, endOnFailure: true },
      );
    },
  );

  const withText = operations.filter((operation) => operation.text);
  it.each(withText.map((operation) => [operation.name, operation] as const))(
    '%s refuses bad text with BAD_USER_INPUT naming the field',
    async (_name, operation) => {
      const bad = (argument: string) =>
        argument === 'scheduledAt' ? fc.oneof(unstorableText, fc.constantFrom(...IMPOSSIBLE_DATES)) : unstorableText;
      await fc.assert(
        fc.asyncProperty(
          operation.variables(values(false)),
          fc
            .constantFrom(...Object.keys(operation.text!))
            .chain((argument) => fc.tuple(fc.constant(argument), bad(argument))),
          async (variables, [argument, value]) => {
            const target =
              'input' in variables
                ? { ...variables, input: { ...(variables.input as object), [argument]: value } }
                : { ...variables, [argument]: value };
            const res = await post(operation.who, { query: operation.query, variables: target });
            const errors = assertClientMistakeHandled(res);
            const field = inGraphQLCasing(operation.text![argument]);
            const named = errors.some(
              (error) =>
                error.extensions?.code === 'BAD_USER_INPUT' &&
                (error.extensions.errors as Record<string, unknown> | undefined)?.[field],
            );
            if (!named)
              throw new Error(`${operation.name} ${argument}=${JSON.stringify(value)}: ${res.text.slice(0, 300)}`);
          },
        ),
        { seed: FUZZ_SEED, numRuns: 40, endOnFailure: true },
      );
    },
  );

  it('answers malformed requests and documents as client errors', async () => {
    const mistakes: [Who | 'none', unknown][] = [
      ['alice', '{"query": '],
      ['alice', {}],
      ['alice', { query: 1 }],
      ['alice', { query: '{ me { id } }', variables: 'x' }],
      ['alice', { query: '{ me { id } }', variables: [1] }],
      ['alice', { query: 'query A { me { id } } query B { me { id } }' }],
      ['alice', { query: '{ me { id } }', operationName: 'Nope' }],
      [
        'alice',
        { query: '{ languages { code } }', extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } },
      ],
      ['alice', { extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } }],
      ['alice', { query: '{ languages { code } }', extensions: { persistedQuery: { version: 2, sha256Hash: 'x' } } }],
      ['staff', { query: '{ sentEmails(to: "a\\u0000b") { items { subject } } }' }],
      ['staff', { query: '{ auditLog(resourceId: "\\ud800") { items { action } } }' }],
      [
        'alice',
        {
          query:
            'mutation { createInterpretationBooking(input: {sourceLanguage: "es", targetLanguage: "en", mode: ON_SITE, scheduledAt: "2031-02-30T09:30:00Z", durationHours: 2, location: "x"}) { id } }',
        },
      ],
      ['alice', { query: '{ me { id } }\u0000' }],
      ['alice', [{ query: '{ me { id } }' }]],
      ['alice', { query: `{ ${'me { id } '.repeat(2000)} }` }],
    ];
    for (const [who, payload] of mistakes) {
      const res = await post(who, payload);
      try {
        assertClientMistakeHandled(res);
        expect(res.status).toBeLessThan(500);
      } catch (error) {
        throw new Error(`${JSON.stringify(payload).slice(0, 200)}: ${(error as Error).message}`, { cause: error });
      }
    }
    const fuzzedDocuments = fc.asyncProperty(
      fc.oneof(
        hostileString,
        fc.string({ maxLength: 60 }).map((s) => `{ me { ${s} } }`),
      ),
      async (query) => {
        assertClientMistakeHandled(await post('alice', { query }));
      },
    );
    await fc.assert(fuzzedDocuments, { seed: FUZZ_SEED, numRuns: 100, endOnFailure: true });
  });

  it('answers any body that does not decompress 400 Malformed request body, JSON or multipart (D2)', async () => {
    await fc.assert(
      fc.asyncProperty(
        undecodableBody,
        fc.constantFrom('application/json', 'multipart/form-data; boundary=x'),
        async ({ encoding, body }, type) => {
          sent += 1;
          const res = await postPieces(`${t.url}/graphql`, [body], {
            'Content-Type': type,
            'Content-Encoding': encoding,
            'Apollo-Require-Preflight': 'true',
            Authorization: `Bearer ${tokens.alice}`,
          });
          if (res.status !== 400 || res.body !== '{"message":"Malformed request body."}')
            throw new Error(`${encoding} ${type}: answered ${res.status} ${res.body.slice(0, 300)}`);
        },
      ),
      { seed: FUZZ_SEED, numRuns: 60, endOnFailure: true },
    );
  });

  it('serves bad credentials as anonymous, each request spending from the client address (D24)', async () => {
    let last = Infinity;
    await fc.assert(
      fc.asyncProperty(badCredential, async (authorization) => {
        const res = await post(
          'none',
          { query: '{ languages { code } }' },
          { Authorization: authorization, 'X-Forwarded-For': '192.0.2.91' },
        );
        const remaining = Number(res.headers['x-ratelimit-remaining']);
        // A clock minute's budget (D16): at the turn of the minute a fresh one starts, spent by this request alone.
        const freshWindow = Number(res.headers['x-ratelimit-limit']) - remaining <= 10;
        if (res.status !== 200 || !(remaining < last || freshWindow))
          throw new Error(`${authorization}: answered ${res.status}, ${remaining} left after ${last}`);
        last = remaining;
      }),
      { seed: FUZZ_SEED, numRuns: 100, endOnFailure: true },
    );
  });

  it(`sent at least ${MIN_REQUESTS} requests`, () => expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS));
});

/** The REST field name as the GraphQL door reports it (`interpreter_name` -> `interpreterName`). */
function inGraphQLCasing(field: string): string {
  return field.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}
