import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AuditLogDocument,
  CreateInterpreterDocument,
  InterpretersDocument,
  UpdateInterpreterDocument,
  type InterpreterInput,
} from '../graphql/generated';
import { createStaffToken } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D32: the interpreters the desk keeps, searched by who qualifies and is free. */
let t: TestApp;
let desk: string;
let translator: string;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
  desk = await createStaffToken(t, StaffRole.DESK);
  translator = await createStaffToken(t, StaffRole.TRANSLATOR);
});
afterAll(() => t.close());

let counter = 0;
const input = (fields: Partial<InterpreterInput> = {}): InterpreterInput => ({
  name: `Ana Ruiz ${counter++}`,
  email: `ana-${Date.now().toString(36)}-${counter}@interpreters.test`,
  languages: ['es', 'en'],
  modes: ['VIDEO_REMOTE'],
  ...fields,
});
const create = async (fields: Partial<InterpreterInput> = {}) => {
  const res = await t.gql(CreateInterpreterDocument, { input: input(fields) }, desk);
  expect(res.errors).toBeUndefined();
  return res.data!.createInterpreter;
};
const errorsOf = (res: { errors?: { extensions?: { code?: string; errors?: Record<string, string[]> } }[] }) =>
  res.errors?.[0]?.extensions;

describe('interpreter records (D32)', () => {
  it('lets the desk create and change an interpreter, each change audited with before and after', async () => {
    const made = await create({ qualifications: ['COURT_CERTIFIED'], credentials: 'State court cert. 991' });
    expect(made).toMatchObject({ languages: ['es', 'en'], qualifications: ['COURT_CERTIFIED'], active: true });
    const changed = await t.gql(
      UpdateInterpreterDocument,
      { id: made.id, input: { active: false, credentials: null } },
      desk,
    );
    expect(changed.errors).toBeUndefined();
    expect(changed.data!.updateInterpreter).toMatchObject({ name: made.name, active: false, credentials: null });
    const audit = await t.gql(AuditLogDocument, { resourceId: made.id }, desk);
    const actions = audit.data!.auditLog.items.map((entry) => entry.action);
    expect(actions.sort()).toEqual(['interpreter.create', 'interpreter.update']);
  });

  it('refuses bad input with 422s naming the fields, and changes nothing', async () => {
    const bad = await t.gql(
      CreateInterpreterDocument,
      { input: { name: '', email: 'not-an-email', languages: ['xx-nope'], modes: [] } },
      desk,
    );
    expect(errorsOf(bad)?.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(errorsOf(bad)!.errors!).sort()).toEqual(['email', 'languages.0', 'modes', 'name']);
    const made = await create();
    const taken = await t.gql(CreateInterpreterDocument, { input: input({ email: made.email }) }, desk);
    expect(errorsOf(taken)?.errors).toEqual({ email: ['The email has already been taken.'] });
    const unknown = await t.gql(
      UpdateInterpreterDocument,
      { id: '00000000-0000-4000-8000-000000000000', input: { active: false } },
      desk,
    );
    expect(errorsOf(unknown)?.code).toBe('NOT_FOUND');
    const noTime = await t.gql(InterpretersDocument, { durationHours: 2 }, desk);
    expect(Object.keys(errorsOf(noTime)!.errors!)).toEqual(['availableAt']);
    const absurd = await t.gql(
      InterpretersDocument,
      { availableAt: new Date(Date.now() + 3600_000).toISOString(), durationHours: -3 },
      desk,
    );
    expect(Object.keys(errorsOf(absurd)!.errors!)).toEqual(['durationHours']);
  });

  it('is for the desk: a translator may neither read nor change interpreters', async () => {
    const made = await create();
    for (const res of [
      await t.gql(InterpretersDocument, {}, translator),
      await t.gql(CreateInterpreterDocument, { input: input() }, translator),
      await t.gql(UpdateInterpreterDocument, { id: made.id, input: { active: false } }, translator),
    ])
      expect(errorsOf(res)?.code).toBe('FORBIDDEN');
  });

  it('finds active interpreters by language, mode and qualification, by name, a page at a time', async () => {
    const lang = 'ja';
    const names = ['Zed Court', 'Amy Court', 'Bea Plain'];
    await create({ name: names[0], languages: [lang, 'en'], qualifications: ['COURT_CERTIFIED'] });
    await create({ name: names[1], languages: [lang, 'en'], qualifications: ['COURT_CERTIFIED', 'MEDICAL_CERTIFIED'] });
    await create({ name: names[2], languages: [lang, 'en'], modes: ['ON_SITE'] });
    const gone = await create({ name: 'Cal Gone', languages: [lang], qualifications: ['COURT_CERTIFIED'] });
    await t.gql(UpdateInterpreterDocument, { id: gone.id, input: { active: false } }, desk);
    const court = await t.gql(InterpretersDocument, { language: lang, qualification: 'COURT_CERTIFIED' }, desk);
    expect(court.data!.interpreters.items.map((i) => i.name)).toEqual(['Amy Court', 'Zed Court']);
    const onSite = await t.gql(InterpretersDocument, { language: lang, mode: 'ON_SITE' }, desk);
    expect(onSite.data!.interpreters.items.map((i) => i.name)).toEqual(['Bea Plain']);
    const second = await t.gql(InterpretersDocument, { language: lang, page: 2, perPage: 2 }, desk);
    expect(second.data!.interpreters.items.map((i) => i.name)).toEqual(['Zed Court']);
    expect(second.data!.interpreters.pageInfo.total).toBe(3);
  });
});
