import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isInputObjectType,
  isObjectType,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { createStaffMember } from '../helpers/certified';
import { docx, words } from '../helpers/documents';
import { uploadFile } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * D37: what the schema deprecates keeps working until the release its deprecation names. The deprecated
 * arguments, fields and input fields are read from the served schema (introspection), so a new deprecation is in
 * this list the day it is made; each is then called by its old name below, through HTTP, and must do what its new
 * name does. The last test fails for any deprecation no call used.
 */
let t: TestApp;
let schema: GraphQLSchema;
let admin: { id: string; token: string };
let alice: TestAccount;
const exercised = new Set<string>();

beforeAll(async () => {
  t = await startTestApp();
  admin = await createStaffMember(t, {
    role: StaffRole.ADMIN,
    name: 'Ada Admin',
    credentials: 'ATA-certified translator no. 123456',
  });
  alice = await createApprovedAccount(t, admin.token);
  const introspection = await t.rest
    .raw()
    .post('/graphql')
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ query: getIntrospectionQuery({ inputValueDeprecation: true }) })
    .expect(200);
  schema = buildClientSchema(introspection.body.data as IntrospectionQuery);
}, 60_000);
afterAll(() => t?.close());

/** Every deprecated argument (`Type.field(arg)`), field (`Type.field`) and input field (`Input.field`) of the schema. */
function deprecations(): string[] {
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (field.deprecationReason) found.push(`${type.name}.${field.name}`);
        for (const arg of field.args) if (arg.deprecationReason) found.push(`${type.name}.${field.name}(${arg.name})`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        if (field.deprecationReason) found.push(`${type.name}.${field.name}`);
    }
  }
  return found.sort();
}

/** The deprecated names a document uses, in the notation of deprecations(). */
function deprecatedIn(query: string): string[] {
  const used: string[] = [];
  const info = new TypeInfo(schema);
  visit(
    parse(query),
    visitWithTypeInfo(info, {
      Field() {
        const field = info.getFieldDef();
        if (field?.deprecationReason) used.push(`${info.getParentType()!.name}.${field.name}`);
      },
      Argument() {
        const arg = info.getArgument();
        if (arg?.deprecationReason) used.push(`${info.getParentType()!.name}.${info.getFieldDef()!.name}(${arg.name})`);
      },
      ObjectField(node) {
        const input = getNamedType(info.getParentInputType());
        if (isInputObjectType(input) && input.getFields()[node.name.value]?.deprecationReason)
          used.push(`${input.name}.${node.name.value}`);
      },
    }),
  );
  return used;
}

/**
 * Runs an operation as the admin (with `upload` as its `file` variable, multipart) and answers its data; it must
 * answer without errors, and the deprecated names it used are then counted as exercised.
 */
async function call(query: string, variables: Record<string, unknown>, upload?: Buffer) {
  const request = t.rest.raw().post('/graphql').set('Authorization', `Bearer ${admin.token}`);
  const res = upload
    ? await request
        .set('Apollo-Require-Preflight', 'true')
        .field('operations', JSON.stringify({ query, variables: { ...variables, file: null } }))
        .field('map', JSON.stringify({ 0: ['variables.file'] }))
        .attach('0', upload, { filename: 'reviewed.en.docx', contentType: 'application/octet-stream' })
    : await request.send({ query, variables });
  expect(res.body.errors).toBeUndefined();
  for (const name of deprecatedIn(query)) exercised.add(name);
  return res.body.data as Record<string, Record<string, unknown>>;
}

describe('a certified order with hard copies and notarization, desk to shipment, by the older names', () => {
  let orderId: string;
  beforeAll(async () => {
    const source = (await uploadFile(t, alice.key, await docx({ paragraphs: [words(300)] }), 'deed.docx')).id;
    orderId = await paidOrder(t, alice, [source], 'certified', {
      addons: [{ code: 'hard_copy', quantity: 1 }, { code: 'notarization' }],
      shipping_address: {
        name: 'Smith & Partners LLP',
        line1: '100 Court St',
        city: 'Springfield',
        postal_code: '62701',
        country: 'US',
      },
    });
    await waitForStatus(t, alice, orderId, 'in_review');
  }, 60_000);

  it('addOrderNote(orderId)', async () => {
    const data = await call('mutation($o: ID) { addOrderNote(orderId: $o, text: "Check the seal.") { text } }', {
      o: orderId,
    });
    expect(data.addOrderNote).toEqual({ text: 'Check the seal.' });
  });

  it('assignOrder(orderId)', async () => {
    const data = await call(
      'mutation($o: ID, $s: ID) { assignOrder(orderId: $o, staffUserId: $s) { assignee { id } } }',
      {
        o: orderId,
        s: admin.id,
      },
    );
    expect(data.assignOrder).toEqual({ assignee: { id: admin.id } });
  });

  it('approveTranslation(fileId)', async () => {
    const { staffOrder } = await call('query($o: ID) { staffOrder(id: $o) { files { id type } } }', { o: orderId });
    const translation = (staffOrder.files as { id: string; type: string }[]).find(
      (file) => file.type === 'TRANSLATION',
    )!;
    const data = await call('mutation($f: ID) { approveTranslation(fileId: $f) { reviews { fileId kind } } }', {
      f: translation.id,
    });
    expect(data.approveTranslation.reviews).toEqual([{ fileId: translation.id, kind: 'APPROVED' }]);
  });

  it('attachReviewedTranslation(orderId)', async () => {
    const data = await call(
      'mutation($o: ID, $file: Upload!) { attachReviewedTranslation(orderId: $o, file: $file) { reviews { kind } } }',
      { o: orderId },
      await docx({ paragraphs: ['Deed (reviewed).'] }),
    );
    expect(data.attachReviewedTranslation.reviews).toEqual([{ kind: 'REPLACED' }]);
  });

  it('recordNotarization(orderId)', async () => {
    const data = await call(
      `mutation($o: ID, $at: DateTime!) { recordNotarization(orderId: $o, notaryName: "Nora Public", commissionNumber: "NP-1",
        jurisdiction: "Illinois", commissionExpiresOn: "2030-06-30", notarizedAt: $at) { notarization { notaryName } } }`,
      { o: orderId, at: new Date().toISOString() },
    );
    expect(data.recordNotarization).toEqual({ notarization: { notaryName: 'Nora Public' } });
  });

  it('completeCertifiedOrder(orderId)', async () => {
    const data = await call('mutation($o: ID) { completeCertifiedOrder(orderId: $o) { status } }', { o: orderId });
    expect(data.completeCertifiedOrder).toEqual({ status: 'COMPLETED' });
  }, 30_000);

  it('markShipped(orderId)', async () => {
    const data = await call(
      'mutation($o: ID) { markShipped(orderId: $o, carrier: "UPS", trackingNumber: "1Z999") { shipment { carrier trackingNumber } } }',
      { o: orderId },
    );
    expect(data.markShipped).toEqual({ shipment: { carrier: 'UPS', trackingNumber: '1Z999' } });
  });
});

describe('an interpreter booking at the desk, by the older names', () => {
  let bookingId: string;
  beforeAll(async () => {
    const body = {
      source_language: 'es',
      target_language: 'en',
      mode: 'video_remote',
      scheduled_at: '2031-01-10T10:00:00-05:00',
      duration_hours: 2,
    };
    bookingId = (await t.rest.post('/api/v1/interpretation-bookings', body, alice.key).expect(201)).body.data.id;
  });

  it('addBookingNote(bookingId)', async () => {
    const data = await call(
      'mutation($b: ID) { addBookingNote(bookingId: $b, text: "Needs a legal glossary.") { text } }',
      {
        b: bookingId,
      },
    );
    expect(data.addBookingNote).toEqual({ text: 'Needs a legal glossary.' });
  });

  it('assignInterpreter(bookingId)', async () => {
    const data = await call(
      'mutation($b: ID) { assignInterpreter(bookingId: $b, interpreterName: "Ana Ruiz") { interpreterName } }',
      { b: bookingId },
    );
    expect(data.assignInterpreter).toEqual({ interpreterName: 'Ana Ruiz' });
  });

  it('confirmInterpretationAvailability(interpreterName): a name alone, no interpreter on record', async () => {
    const data = await call(
      'mutation($b: ID!) { confirmInterpretationAvailability(id: $b, interpreterName: "Ana Ruiz") { status interpreterName interpreter { name } } }',
      { b: bookingId },
    );
    expect(data.confirmInterpretationAvailability).toEqual({
      status: 'AWAITING_PAYMENT',
      interpreterName: 'Ana Ruiz',
      interpreter: null,
    });
  });
});

describe("an account's key, by the older names", () => {
  it('regenerateApiKey(accountId): the old key answers 401 at once', async () => {
    const bob = await createApprovedAccount(t, await createStaffToken(t));
    await call('mutation($a: ID) { regenerateApiKey(accountId: $a) { id } }', { a: bob.id });
    await t.rest.get('/api/v1/me', bob.key).expect(401);
  });

  it('revokeApiKey(accountId): the key answers 401 at once', async () => {
    const carol = await createApprovedAccount(t, await createStaffToken(t));
    await call('mutation($a: ID) { revokeApiKey(accountId: $a) { apiKeyLast4 } }', { a: carol.id });
    await t.rest.get('/api/v1/me', carol.key).expect(401);
  });
});

it('called every deprecated argument, field and input field of the schema by its old name', () => {
  expect(deprecations().length).toBeGreaterThan(0);
  expect([...exercised].sort()).toEqual(deprecations());
});
