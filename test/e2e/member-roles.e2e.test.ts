import { randomUUID } from 'node:crypto';
import { MemberRole } from '../../src/domain/identity/member.entity';
import {
  mayCall,
  PARTNER_PERMISSIONS,
  ROLE_FORBIDDEN,
  type PartnerCaller,
  type PartnerOperation,
} from '../../src/domain/identity/partner-permissions';
import { UploadFileDocument } from '../graphql/generated';
import { createApprovedAccount, createStaffToken, keysMailedTo } from '../helpers/fixtures';
import { gqlRaw } from '../helpers/graphql-raw';
import { memberSession, signInAs } from '../helpers/members';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D27's permission table walked: every partner operation, for the API key and every role, on each door that has it.
 * Ids are unknown and inputs empty, so an allowed call answers 404 or 422 and changes nothing; a refused one answers
 * 403 (FORBIDDEN) before anything is read.
 */
let t: TestApp;
let staff: string;
const tokens = {} as Record<PartnerCaller, string>;
let sessionEmails: Record<MemberRole, string>;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  staff = await createStaffToken(t);
  const firm = await createApprovedAccount(t, staff);
  tokens.api_key = firm.key;
  tokens.admin = await signInAs(t, staff, firm.email);
  const member = await memberSession(t, staff, tokens.admin, 'MEMBER');
  const viewer = await memberSession(t, staff, tokens.admin, 'VIEWER');
  tokens.member = member.session;
  tokens.viewer = viewer.session;
  sessionEmails = { admin: firm.email, member: member.email, viewer: viewer.email };
}, 60_000);
afterAll(() => t.close());

type Answer = { status: number; forbidden: boolean; body: unknown };
type Door = (token: string) => Promise<Answer>;

const id = randomUUID();
const graphql =
  (query: string): Door =>
  async (token) => {
    const answer = await gqlRaw(t.rest.raw(), query, { token });
    const codes = (answer.errors ?? []).map((error) => error.extensions.code);
    return { status: answer.status, forbidden: codes.includes('FORBIDDEN'), body: answer.errors };
  };
const rest =
  (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object): Door =>
  async (token) => {
    const res =
      method === 'get' || method === 'delete'
        ? await t.rest[method](path, token)
        : await t.rest[method](path, body ?? {}, token);
    return { status: res.status, forbidden: res.status === 403, body: res.body };
  };
const upload: Door = async (token) => {
  const res = await t.rest.upload('/api/v1/files', { fields: { type: 'source' } }, token);
  return { status: res.status, forbidden: res.status === 403, body: res.body };
};
const graphqlUpload: Door = async (token) => {
  const answer = await t.gqlUpload(
    UploadFileDocument,
    {},
    { content: Buffer.alloc(0), filename: 'empty.pdf' },
    { token },
  );
  return {
    status: answer.status,
    forbidden: answer.errors?.some((error) => error.extensions?.code === 'FORBIDDEN') ?? false,
    body: answer.errors,
  };
};

/** Rotates the key when allowed; the walk goes on with the new one, read from the account's mail as its owner would. */
const regenerateKey: Door = async (token) => {
  const answer = await graphql('mutation { regenerateAccountApiKey { apiKeyLast4 } }')(token);
  if (!answer.forbidden) tokens.api_key = (await keysMailedTo(t, staff, sessionEmails.admin)).at(-1)!;
  return answer;
};

/** Each operation on each door; the type makes a new operation in the table fail to compile until it is walked here. */
const DOORS: Record<Exclude<PartnerOperation, 'session.sign_out'>, { graphql: Door; rest?: Door }> = {
  'account.read': { graphql: graphql('{ me { id } }'), rest: rest('get', '/api/v1/me') },
  'files.read': { graphql: graphql(`{ file(id: "${id}") { id } }`), rest: rest('get', `/api/v1/files/${id}`) },
  'files.upload': { graphql: graphqlUpload, rest: upload },
  'files.delete': {
    graphql: graphql(`mutation { deleteFile(id: "${id}") }`),
    rest: rest('delete', `/api/v1/files/${id}`),
  },
  'quotes.read': { graphql: graphql('{ quotes { items { id } } }'), rest: rest('get', '/api/v1/quotes') },
  'quotes.create': {
    graphql: graphql(
      'mutation { createQuote(input: { sourceLanguage: "xx", targetLanguage: "en", serviceType: CERTIFIED, fileIds: [] }) { id } }',
    ),
    rest: rest('post', '/api/v1/quotes', {}),
  },
  'quotes.delete': {
    graphql: graphql(`mutation { deleteQuote(id: "${id}") }`),
    rest: rest('delete', `/api/v1/quotes/${id}`),
  },
  'orders.read': { graphql: graphql('{ orders { items { id } } }'), rest: rest('get', '/api/v1/orders') },
  'invoices.read': { graphql: graphql('{ invoices { items { id } } }'), rest: rest('get', '/api/v1/invoices') },
  'orders.convert': {
    graphql: graphql(`mutation { convertQuote(id: "${id}") { approvalUrl } }`),
    rest: rest('post', `/api/v1/quotes/${id}/convert`),
  },
  'orders.cancel': {
    graphql: graphql(`mutation { cancelOrder(id: "${id}") { id } }`),
    rest: rest('post', `/api/v1/orders/${id}/cancel`),
  },
  'orders.set_shipping_address': {
    graphql: graphql(
      `mutation { setShippingAddress(orderId: "${id}", address: { name: "A", line1: "1 Main St", city: "Springfield", postalCode: "62701", country: "US" }) { id } }`,
    ),
    rest: rest('put', `/api/v1/orders/${id}/shipping_address`, {
      name: 'A',
      line1: '1 Main St',
      city: 'Springfield',
      postal_code: '62701',
      country: 'US',
    }),
  },
  'orders.renew_checkout': {
    graphql: graphql(`mutation { renewCheckout(orderId: "${id}") { approvalUrl } }`),
    rest: rest('post', `/api/v1/orders/${id}/checkout`),
  },
  'orders.request_revision': {
    graphql: graphql(`mutation { requestRevision(orderId: "${id}", reason: "Fix the dates.") { id } }`),
    rest: rest('post', `/api/v1/orders/${id}/revisions`, { reason: 'Fix the dates.' }),
  },
  'orders.message': {
    graphql: graphql(`mutation { postOrderMessage(orderId: "${id}", text: "") { id } }`),
    rest: rest('post', `/api/v1/orders/${id}/messages`, { text: '' }),
  },
  'orders.delete_documents': {
    graphql: graphql(`mutation { deleteOrderDocuments(id: "${id}") { id } }`),
    rest: rest('delete', `/api/v1/orders/${id}/documents`),
  },
  'orders.legal_hold': {
    graphql: graphql(`mutation { setLegalHold(orderId: "${id}", on: true, reason: "Litigation") { id } }`),
  },
  'account.retention': { graphql: graphql('mutation { setRetention(days: 90) { retentionDays } }') },
  'bookings.read': {
    graphql: graphql('{ interpretationBookings { items { id } } }'),
    rest: rest('get', '/api/v1/interpretation-bookings'),
  },
  'bookings.create': {
    graphql: graphql(
      'mutation { createInterpretationBooking(input: { sourceLanguage: "es", targetLanguage: "en", mode: VIDEO_REMOTE, scheduledAt: "2020-01-01T10:00:00Z", durationHours: 1 }) { id } }',
    ),
    rest: rest('post', '/api/v1/interpretation-bookings', {}),
  },
  'bookings.cancel': {
    graphql: graphql(`mutation { cancelInterpretationBooking(id: "${id}") { id } }`),
    rest: rest('post', `/api/v1/interpretation-bookings/${id}/cancel`),
  },
  'bookings.renew_checkout': {
    graphql: graphql(`mutation { renewCheckout(bookingId: "${id}") { approvalUrl } }`),
    rest: rest('post', `/api/v1/interpretation-bookings/${id}/checkout`),
  },
  'account.key.manage': { graphql: regenerateKey },
  'members.read': { graphql: graphql('{ members { items { id } } }') },
  'members.manage': { graphql: graphql(`mutation { updateMemberRole(id: "${id}", role: VIEWER) { id } }`) },
};

const CALLERS: PartnerCaller[] = ['api_key', MemberRole.ADMIN, MemberRole.MEMBER, MemberRole.VIEWER];
const cases = Object.entries(DOORS).flatMap(([operation, doors]) =>
  CALLERS.flatMap((caller) =>
    Object.entries(doors).map(([door, call]) => [operation as PartnerOperation, caller, door, call] as const),
  ),
);

describe('every partner operation for every caller', () => {
  it.each(cases)('%s as %s on %s', async (operation, caller, door, call) => {
    const answer = await call(tokens[caller]);
    if (mayCall(caller, operation)) {
      expect(answer.forbidden).toBe(false);
      expect(answer.status).toBeLessThan(500);
    } else if (door === 'rest') {
      expect(answer).toMatchObject({ status: 403, body: { message: ROLE_FORBIDDEN } });
    } else {
      expect(answer.body).toEqual([
        expect.objectContaining({ message: ROLE_FORBIDDEN, extensions: { code: 'FORBIDDEN' } }),
      ]);
    }
  });

  it('signs every member out, and refuses signOut to the key', async () => {
    expect((await graphql('mutation { signOut }')(tokens.api_key)).forbidden).toBe(true);
    for (const role of [MemberRole.ADMIN, MemberRole.MEMBER, MemberRole.VIEWER]) {
      const session = await signInAs(t, staff, sessionEmails[role]);
      expect((await gqlRaw(t.rest.raw(), 'mutation { signOut }', { token: session })).data).toEqual({ signOut: true });
      await t.rest.get('/api/v1/me', session).expect(401);
    }
  }, 30_000);

  it('lets a viewer only read, and only admins manage people (the table as D27 words it)', () => {
    const operations = Object.keys(PARTNER_PERMISSIONS) as PartnerOperation[];
    const viewerMay = operations.filter((operation) => mayCall(MemberRole.VIEWER, operation));
    expect(viewerMay.filter((operation) => !operation.endsWith('.read'))).toEqual(['session.sign_out']);
    for (const caller of ['api_key', MemberRole.MEMBER, MemberRole.VIEWER] as const) {
      expect(
        mayCall(caller, 'members.manage') || mayCall(caller, 'members.read') || mayCall(caller, 'account.key.manage'),
      ).toBe(false);
    }
    // The account's own decisions about its documents (D33) are its admins' too.
    const adminDecisions: PartnerOperation[] = ['account.retention', 'orders.legal_hold', 'orders.delete_documents'];
    expect(adminDecisions.every((operation) => !mayCall(MemberRole.MEMBER, operation))).toBe(true);
    const work = operations.filter(
      (operation) =>
        !operation.startsWith('members.') &&
        operation !== 'session.sign_out' &&
        operation !== 'account.key.manage' &&
        !adminDecisions.includes(operation),
    );
    expect(work.every((operation) => mayCall('api_key', operation) && mayCall(MemberRole.MEMBER, operation))).toBe(
      true,
    );
  });
});
