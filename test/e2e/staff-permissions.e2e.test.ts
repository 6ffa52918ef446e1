import { readFileSync } from 'node:fs';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isNonNullType,
  type GraphQLField,
} from 'graphql';
import {
  STAFF_PERMISSIONS,
  STAFF_READ_LIMITS,
  type LimitedField,
  type StaffOperation,
} from '../../src/domain/identity/staff-permissions';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { Invoice } from '../../src/domain/billing/invoice.entity';
import { Account } from '../../src/domain/identity/account.entity';
import { AssignOrderDocument } from '../graphql/generated';
import { createStaffMember } from '../helpers/certified';
import { pdf } from '../helpers/documents';
import { createApprovedAccount, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { gqlRaw, type RawGraphQLAnswer } from '../helpers/graphql-raw';
import { paidOrder } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D28: one permission table decides every staff operation. This walks the whole schema through GraphQL: it finds
 * the staff operations as an account key meets them (refused "Staff only."), checks that they are exactly the
 * table's, and then runs each one as every role: allowed ones are never FORBIDDEN, the others always are.
 */
const ZERO = '00000000-0000-4000-8000-000000000000';
type Staff = Awaited<ReturnType<typeof createStaffMember>>;

let t: TestApp;
/** The committed schema, which `schema:check` keeps equal to the code's. */
const schema = buildSchema(readFileSync('schema/schema.graphql', 'utf8'));
let alice: TestAccount;
let orderId: string;
let bookingId: string;
const staff = {} as Record<StaffRole, Staff>;

beforeAll(async () => {
  t = await startTestApp();
  for (const role of Object.values(StaffRole))
    staff[role] = await createStaffMember(t, { role, name: `A ${role}`, credentials: 'Sworn translator no. 7' });
  alice = await createApprovedAccount(t, staff.admin.token);
  const file = await uploadFile(t, alice.key, await pdf(['Una página.']), 'carta.pdf');
  orderId = await paidOrder(t, alice, [file.id]);
  // The translator's own assignment: the order's staff fields are theirs to read.
  const assigned = await t.gql(AssignOrderDocument, { orderId, staffUserId: staff.translator.id }, staff.admin.token);
  expect(assigned.errors).toBeUndefined();
  const booked = await t.rest
    .post(
      '/api/v1/interpretation-bookings',
      {
        source_language: 'es',
        target_language: 'en',
        mode: 'video_remote',
        scheduled_at: new Date(Date.now() + 7 * 86400_000).toISOString(),
        duration_hours: 2,
      },
      alice.key,
    )
    .expect(201);
  bookingId = booked.body.data.id;
  // An invoice of alice's (D31), written as the close would, so that its staff field is reached through a list.
  const em = t.orm.em.fork();
  const issuedAt = new Date();
  em.persist(
    Object.assign(new Invoice(), {
      number: 'INV-209901-0001',
      account: em.getReference(Account, alice.id),
      periodStart: issuedAt,
      issuedAt,
      dueAt: issuedAt,
      totalCents: 0,
      currency: 'USD',
    }),
  );
  await em.flush();
}, 120_000);
afterAll(() => t.close());

/** A value of the argument's type that passes parsing; ids name nothing unless the walk needs them to. */
function dummy(type: NonNullable<ReturnType<typeof getNamedType>>): unknown {
  if (isEnumType(type)) return type.getValues()[0].name;
  // An input object of optional fields (an interpreter's record): empty, it parses.
  if (isInputObjectType(type)) return {};
  switch (type.name) {
    case 'ID':
      return ZERO;
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    case 'DateTime':
      return new Date(Date.now() + 86400_000).toISOString();
    default:
      return 'x';
  }
}

const selection = (field: GraphQLField<unknown, unknown>): string =>
  isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';

/** The operation that reaches `name` (a root field, or a field of an order, its payment, a booking or an invoice). */
function operationFor(
  name: string,
  who: 'account' | 'staff',
  self?: Staff,
): { query: string; variables: Record<string, unknown>; upload?: string } {
  const [parent, fieldName] = name.includes('.') ? name.split('.') : [undefined, name];
  if (parent) {
    const field = (schema.getType(parent) as ReturnType<typeof schema.getQueryType> & object).getFields()[fieldName];
    const leaf = `${fieldName}${selection(field)}`;
    const inner = parent === 'Payment' ? `payment { ${leaf} }` : leaf;
    // An invoice is reached through the list of each side: it has no staff look-up of its own.
    if (parent === 'Invoice')
      return {
        query: `query { ${who === 'account' ? 'invoices' : 'staffInvoices(perPage: 1)'} { items { ${leaf} } } }`,
        variables: {},
      };
    const root =
      parent === 'InterpretationBooking'
        ? who === 'account'
          ? 'interpretationBooking'
          : 'staffInterpretationBooking'
        : who === 'account'
          ? 'order'
          : 'staffOrder';
    const id = parent === 'InterpretationBooking' ? bookingId : orderId;
    return { query: `query { ${root}(id: "${id}") { ${inner} } }`, variables: {} };
  }
  const mutation = schema.getMutationType()!.getFields()[name];
  const field = mutation ?? schema.getQueryType()!.getFields()[name];
  const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
  const variables: Record<string, unknown> = {};
  let upload: string | undefined;
  for (const arg of required) {
    if (getNamedType(arg.type).name === 'Upload') upload = arg.name;
    else
      variables[arg.name] =
        name === 'updateStaffProfile' && arg.name === 'id' ? (self?.id ?? ZERO) : dummy(getNamedType(arg.type));
  }
  const declared = required.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const passed = required.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const query = `${mutation ? 'mutation' : 'query'}${declared ? `(${declared})` : ''} { ${name}${passed ? `(${passed})` : ''}${selection(field)} }`;
  return { query, variables, upload };
}

async function run(name: string, token: string, who: 'account' | 'staff', self?: Staff): Promise<RawGraphQLAnswer> {
  const { query, variables, upload } = operationFor(name, who, self);
  if (!upload) return gqlRaw(t.rest.raw(), query, { token, variables });
  const res = await t.rest
    .raw()
    .post('/graphql')
    .set('Authorization', `Bearer ${token}`)
    .set('Apollo-Require-Preflight', 'true')
    .field('operations', JSON.stringify({ query, variables: { ...variables, [upload]: null } }))
    .field('map', JSON.stringify({ 0: [`variables.${upload}`] }))
    .attach('0', Buffer.from('%PDF-1.7\n'), { filename: 'x.pdf', contentType: 'application/pdf' });
  return { status: res.status, headers: res.headers, data: res.body.data, errors: res.body.errors };
}

/** Every field an account key may ask for that answers "Staff only.": the schema's staff operations. */
async function staffOperationsOfTheSchema(): Promise<string[]> {
  const roots = [
    ...Object.keys(schema.getQueryType()!.getFields()),
    ...Object.keys(schema.getMutationType()!.getFields()),
  ];
  const fields = ['Order', 'Payment', 'InterpretationBooking', 'Invoice'].flatMap((type) =>
    Object.keys((schema.getType(type) as { getFields(): object }).getFields()).map((field) => `${type}.${field}`),
  );
  const found: string[] = [];
  for (const name of [...roots, ...fields]) {
    const answer = await run(name, alice.key, 'account');
    if (answer.errors?.some((error) => error.message === 'Staff only.')) found.push(name);
  }
  return found.sort();
}

const forbidden = (answer: RawGraphQLAnswer) =>
  answer.errors?.some((error) => error.extensions.code === 'FORBIDDEN') ?? false;

it('finds in the schema exactly the staff operations the permission table names', async () => {
  // setLegalHold is also an admin member's (D33): an account key meets the partner table's refusal there instead.
  expect(await staffOperationsOfTheSchema()).toEqual(
    Object.keys(STAFF_PERMISSIONS)
      .filter((name) => schemaHas(name) && name !== 'setLegalHold')
      .sort(),
  );
  // The table's other entries are parts of updateStaffProfile (another's profile, a role): staff-users and staff-desk test them.
  expect(
    Object.keys(STAFF_PERMISSIONS)
      .filter((name) => !schemaHas(name))
      .sort(),
  ).toEqual(['changeStaffRole', 'updateOtherStaffProfile']);
}, 120_000);

function schemaHas(name: string): boolean {
  const [parent, field] = name.includes('.') ? name.split('.') : [undefined, name];
  if (parent)
    return Boolean(
      (schema.getType(parent) as { getFields?(): Record<string, unknown> } | undefined)?.getFields?.()[field],
    );
  return Boolean(schema.getQueryType()!.getFields()[name] ?? schema.getMutationType()!.getFields()[name]);
}

describe('fields clients read too, limited for some staff roles (STAFF_READ_LIMITS)', () => {
  const fields = Object.keys(STAFF_READ_LIMITS) as LimitedField[];

  it('names only fields of the schema, which the client reads on its own order', async () => {
    expect(fields.filter((name) => !schemaHas(name))).toEqual([]);
    for (const name of fields) {
      const answer = await run(name, alice.key, 'account');
      expect({ name, errors: answer.errors }).toEqual({ name, errors: undefined });
    }
  });

  describe.each(Object.values(StaffRole))('as %s', (role) => {
    it.each(fields)('%s', async (name) => {
      const allowed = (STAFF_READ_LIMITS[name] as readonly StaffRole[]).includes(role);
      const answer = await run(name, staff[role].token, 'staff', staff[role]);
      expect({ name, role, forbidden: forbidden(answer) }).toEqual({ name, role, forbidden: !allowed });
      if (allowed) expect(answer.errors).toBeUndefined();
    });
  });
});

describe.each(Object.values(StaffRole))('as %s', (role) => {
  // Rotating the token ends the walk: it changes the credential the rest of it uses.
  const operations = (Object.keys(STAFF_PERMISSIONS) as StaffOperation[])
    .filter(schemaHas)
    .sort((a, b) => Number(a === 'rotateStaffToken') - Number(b === 'rotateStaffToken'));
  it.each(operations)(`%s`, async (name) => {
    const allowed = (STAFF_PERMISSIONS[name] as readonly StaffRole[]).includes(role);
    const answer = await run(name, staff[role].token, 'staff', staff[role]);
    expect({ name, role, forbidden: forbidden(answer) }).toEqual({ name, role, forbidden: !allowed });
    expect(answer.status).toBeLessThan(500);
  });
});
