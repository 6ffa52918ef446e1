import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AllInterpretersDocument,
  AuditLogDocument,
  BookingInterpreterDocument,
  ConfirmWithInterpreterDocument,
  CreateInterpreterDocument,
  HoldInterpretationBookingDocument,
  InterpretersDocument,
  QualifiedForDocument,
  ReleaseInterpretationBookingDocument,
  ReplaceInterpreterDocument,
  SentEmailsDocument,
  UpdateInterpreterDocument,
  type InterpreterInput,
} from '../graphql/generated';
import { requestBooking } from '../helpers/bookings';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { StatementLog } from '../helpers/statement-log';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D32: the interpreters the desk keeps, searched by who qualifies and is free. */
let t: TestApp;
let desk: string;
let translator: string;
let admin: string;
let alice: TestAccount;
const statements = new StatementLog();
beforeAll(async () => {
  t = await startTestApp({ workers: false, onQuery: statements.record });
  desk = await createStaffToken(t, StaffRole.DESK);
  translator = await createStaffToken(t, StaffRole.TRANSLATOR);
  admin = await createStaffToken(t);
  alice = await createApprovedAccount(t, admin);
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

/** A start far enough ahead, on a minute of its own, so bookings of one test never meet another test's. */
let slot = 0;
const freshStart = () => new Date(Date.UTC(2031, 0, 1) + slot++ * 7 * 24 * 3600_000);
const at = (start: Date, minutes: number) => new Date(start.getTime() + minutes * 60_000).toISOString();
const book = async (fields: Record<string, unknown> = {}) => (await requestBooking(t, alice.key, fields)).id;
const confirm = (id: string, interpreterId: string, token = desk) =>
  t.gql(ConfirmWithInterpreterDocument, { id, interpreterId }, token);
const restBooking = async (id: string) =>
  (await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).body.data;
const refusalOf = (res: Parameters<typeof errorsOf>[0]) => errorsOf(res)?.errors?.interpreterId?.[0];

describe('confirming an interpreter on record checks the rules (D32)', () => {
  it('refuses each broken rule with a 422 naming it, and leaves the booking requested with no checkout', async () => {
    const start = freshStart();
    const spanish = await book({ scheduled_at: start.toISOString() });
    const court = await book({ scheduled_at: at(start, 600), setting: 'court' });
    const asl = await book({ scheduled_at: at(start, 1200), mode: 'asl' });
    const french = await create({ languages: ['fr', 'en'] });
    const onSite = await create({ modes: ['ON_SITE'] });
    const plain = await create();
    const aslNoCert = await create({ modes: ['ASL'] });
    const inactive = await create();
    await t.gql(UpdateInterpreterDocument, { id: inactive.id, input: { active: false } }, desk);
    const cases: [string, string, string][] = [
      [spanish, '00000000-0000-4000-8000-000000000000', 'No interpreter has this id.'],
      [spanish, inactive.id, 'Active: '],
      [spanish, french.id, 'Languages: the interpreter does not speak Spanish.'],
      [spanish, onSite.id, 'Mode: '],
      [court, plain.id, 'Qualification: a court needs a COURT_CERTIFIED interpreter.'],
      [asl, aslNoCert.id, 'Qualification: ASL interpretation needs an ASL_CERTIFIED interpreter.'],
    ];
    for (const [booking, interpreter, rule] of cases) {
      const res = await confirm(booking, interpreter);
      expect(errorsOf(res)?.code).toBe('BAD_USER_INPUT');
      expect(refusalOf(res)).toContain(rule);
    }
    for (const id of [spanish, court, asl]) {
      const after = await restBooking(id);
      expect(after).toMatchObject({ status: 'requested', interpreter_name: null, interpreter: null });
      expect(after.payment.approval_url).toBeNull();
    }
    const badId = await confirm(spanish, 'not-an-id');
    expect(Object.keys(errorsOf(badId)!.errors!)).toEqual(['interpreterId']);
  });

  it('asks for both languages when neither is the base language, and only the other one when one is', async () => {
    const start = freshStart();
    const germanFrench = await book({
      scheduled_at: start.toISOString(),
      source_language: 'de',
      target_language: 'fr',
    });
    const germanOnly = await create({ languages: ['de'] });
    expect(refusalOf(await confirm(germanFrench, germanOnly.id))).toBe(
      'Languages: the interpreter does not speak French.',
    );
    const both = await create({ languages: ['fr', 'de'] });
    expect((await confirm(germanFrench, both.id)).errors).toBeUndefined();
    const germanEnglish = await book({ scheduled_at: at(start, 600), source_language: 'de', target_language: 'en' });
    expect((await confirm(germanEnglish, germanOnly.id)).errors).toBeUndefined();
  });

  it('keeps 30 minutes either side of an interpreter’s other bookings, and the search agrees', async () => {
    const start = freshStart();
    const ana = await create({ name: 'Ana Busy', languages: ['es'] });
    const first = await book({ scheduled_at: start.toISOString(), duration_hours: 2 });
    expect((await confirm(first, ana.id)).errors).toBeUndefined();
    const tooClose = await book({ scheduled_at: at(start, 120 + 29) });
    expect(refusalOf(await confirm(tooClose, ana.id))).toBe(
      'Overlap: the interpreter has another confirmed or awaiting-payment booking within 30 minutes of this one.',
    );
    const before = await book({ scheduled_at: at(start, -120 - 29) });
    expect(refusalOf(await confirm(before, ana.id))).toMatch(/^Overlap: /);
    const free = (availableAt: string) =>
      t
        .gql(InterpretersDocument, { language: 'es', availableAt, durationHours: 2, perPage: 100 }, desk)
        .then((res) => res.data!.interpreters.items.map((i) => i.id));
    expect(await free(at(start, 120 + 29))).not.toContain(ana.id);
    expect(await free(at(start, 120 + 30))).toContain(ana.id);
    const justAfter = await book({ scheduled_at: at(start, 120 + 30) });
    expect((await confirm(justAfter, ana.id)).errors).toBeUndefined();
  });

  it('lets exactly one of two desk people confirm one interpreter for overlapping bookings at the same moment', async () => {
    for (let round = 0; round < 4; round++) {
      const start = freshStart();
      const ana = await create({ languages: ['es'] });
      const [a, b] = [await book({ scheduled_at: start.toISOString() }), await book({ scheduled_at: at(start, 60) })];
      const answers = await Promise.all([confirm(a, ana.id), confirm(b, ana.id)]);
      expect(answers.filter((res) => res.errors === undefined)).toHaveLength(1);
      expect(refusalOf(answers.find((res) => res.errors)!)).toMatch(/^Overlap: /);
      const statuses = [(await restBooking(a)).status, (await restBooking(b)).status].sort();
      expect(statuses).toEqual(['awaiting_payment', 'requested']);
    }
  });

  const held = async (start: Date, interpreterId: string) => {
    const id = await book({ scheduled_at: start.toISOString() });
    expect((await confirm(id, interpreterId)).errors).toBeUndefined();
    const hold = await t.gql(HoldInterpretationBookingDocument, { id, reason: 'The court may adjourn.' }, desk);
    expect(hold.errors).toBeUndefined();
    return id;
  };
  const release = (id: string) => t.gql(ReleaseInterpretationBookingDocument, { id }, desk);

  it('checks the interpreter again when a held booking is released: the overlap, and that they are still active', async () => {
    const start = freshStart();
    const ana = await create({ languages: ['es'] });
    const onHold = await held(start, ana.id);
    // On hold, the booking holds no time: the desk gives the interpreter another booking meanwhile.
    const other = await book({ scheduled_at: at(start, 60) });
    expect((await confirm(other, ana.id)).errors).toBeUndefined();
    const refused = await release(onHold);
    expect(errorsOf(refused)?.code).toBe('BAD_USER_INPUT');
    expect(refusalOf(refused)).toMatch(/^Overlap: /);
    expect((await restBooking(onHold)).status).toBe('on_hold');

    const bea = await create({ languages: ['es'] });
    const later = await held(new Date(at(start, 1200)), bea.id);
    await t.gql(UpdateInterpreterDocument, { id: bea.id, input: { active: false } }, desk);
    expect(refusalOf(await release(later))).toMatch(/^Active: /);
    expect((await restBooking(later)).status).toBe('on_hold');
    await t.gql(UpdateInterpreterDocument, { id: bea.id, input: { active: true } }, desk);
    expect((await release(later)).errors).toBeUndefined();
    expect((await restBooking(later)).status).toBe('awaiting_payment');
  });

  const replace = (id: string, interpreterId: string, token = desk) =>
    t.gql(ReplaceInterpreterDocument, { id, interpreterId }, token);

  it('lets the desk replace the deactivated interpreter of a held booking by one who qualifies, then release it', async () => {
    const start = freshStart();
    const bea = await create({ languages: ['es'] });
    const onHold = await held(start, bea.id);
    await t.gql(UpdateInterpreterDocument, { id: bea.id, input: { active: false } }, desk);
    expect(refusalOf(await release(onHold))).toMatch(/^Active: /);

    // Each replacement is checked as a confirmation is; refused, nothing changes.
    const french = await create({ languages: ['fr'] });
    const refusals: [string, string][] = [
      [bea.id, 'Active: '],
      [french.id, 'Languages: '],
      ['00000000-0000-4000-8000-000000000000', 'No interpreter has this id.'],
    ];
    for (const [interpreterId, rule] of refusals) {
      const res = await replace(onHold, interpreterId);
      expect(errorsOf(res)?.code).toBe('BAD_USER_INPUT');
      expect(refusalOf(res)).toContain(rule);
    }
    expect(Object.keys(errorsOf(await replace(onHold, 'not-an-id'))!.errors!)).toEqual(['interpreterId']);
    expect((await restBooking(onHold)).interpreter.name).toBe(bea.name);

    const cruz = await create({ languages: ['es'], qualifications: ['MEDICAL_CERTIFIED'] });
    const forbidden = await replace(onHold, cruz.id, translator);
    expect(errorsOf(forbidden)?.code).toBe('FORBIDDEN');
    const replaced = await replace(onHold, cruz.id);
    expect(replaced.errors).toBeUndefined();
    expect(replaced.data!.replaceInterpreter).toMatchObject({ status: 'ON_HOLD', interpreterName: cruz.name });
    const audit = await t.gql(AuditLogDocument, { resourceId: onHold }, desk);
    const entry = audit.data!.auditLog.items.find((item) => item.action === 'booking.replace_interpreter');
    expect(entry?.details).toEqual({
      before: { interpreter_id: bea.id, name: bea.name },
      after: { interpreter_id: cruz.id, name: cruz.name },
    });
    // The account hears who comes instead of whom, once: the refused replacements told it nothing.
    const told = (await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, admin))
      .data!.sentEmails.items.filter((mail) => mail.kind === 'interpreter_changed')
      .filter((mail) => mail.subject.includes(replaced.data!.replaceInterpreter.number));
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain(`${cruz.name} is now the interpreter of booking`);
    expect(told[0].text).toContain(`in place of ${bea.name}`);
    // The same interpreter put on record again is no news to the client.
    expect((await replace(onHold, cruz.id)).errors).toBeUndefined();
    const again = (await t.gql(SentEmailsDocument, { to: alice.email, perPage: 100 }, admin)).data!.sentEmails.items;
    const number = replaced.data!.replaceInterpreter.number;
    expect(again.filter((mail) => mail.kind === 'interpreter_changed' && mail.subject.includes(number))).toEqual(told);

    expect((await release(onHold)).errors).toBeUndefined();
    expect(await restBooking(onHold)).toMatchObject({
      status: 'awaiting_payment',
      interpreter_name: cruz.name,
      interpreter: { name: cruz.name, qualifications: ['MEDICAL_CERTIFIED'] },
    });
    expect(errorsOf(await replace('00000000-0000-4000-8000-000000000000', cruz.id))?.code).toBe('NOT_FOUND');
  });

  it('refuses to replace the interpreter of a booking holding time by one busy then, and of a finished booking', async () => {
    const start = freshStart();
    const [ana, dan] = [await create({ languages: ['es'] }), await create({ languages: ['es'] })];
    const mine = await book({ scheduled_at: start.toISOString() });
    expect((await confirm(mine, ana.id)).errors).toBeUndefined();
    const theirs = await book({ scheduled_at: at(start, 60) });
    expect((await confirm(theirs, dan.id)).errors).toBeUndefined();
    expect(refusalOf(await replace(mine, dan.id))).toMatch(/^Overlap: /);
    expect((await restBooking(mine)).interpreter_name).toBe(ana.name);

    const done = await book({ scheduled_at: at(start, 1200) });
    await t.rest.post(`/api/v1/interpretation-bookings/${done}/cancel`, undefined, alice.key).expect(200);
    const finished = await replace(done, dan.id);
    expect(errorsOf(finished)?.code).toBe('BAD_USER_INPUT');
    expect((await restBooking(done)).interpreter).toBeNull();
  });

  it('gives an interpreter to exactly one of two overlapping bookings replacing theirs with them at once', async () => {
    for (let round = 0; round < 4; round++) {
      const start = freshStart();
      const [ana, dan, eve] = [
        await create({ languages: ['es'] }),
        await create({ languages: ['es'] }),
        await create({ languages: ['es'] }),
      ];
      const mine = await book({ scheduled_at: start.toISOString() });
      const theirs = await book({ scheduled_at: at(start, 30) });
      expect((await confirm(mine, ana.id)).errors).toBeUndefined();
      expect((await confirm(theirs, dan.id)).errors).toBeUndefined();
      const answers = await Promise.all([replace(mine, eve.id), replace(theirs, eve.id)]);
      const won = answers.filter((answer) => !answer.errors);
      expect(won).toHaveLength(1);
      expect(refusalOf(answers.find((answer) => answer.errors)!)).toMatch(/^Overlap: /);
      const names = [(await restBooking(mine)).interpreter_name, (await restBooking(theirs)).interpreter_name];
      expect(names.filter((name) => name === eve.name)).toHaveLength(1);
      expect(names).toContainEqual(expect.stringMatching(new RegExp(`^(${ana.name}|${dan.name})$`)));
    }
  });

  it('lets exactly one of a release and a confirmation of one interpreter for overlapping bookings win', async () => {
    for (let round = 0; round < 8; round++) {
      const start = freshStart();
      const ana = await create({ languages: ['es'] });
      const onHold = await held(start, ana.id);
      const other = await book({ scheduled_at: at(start, 30) });
      // The confirmation makes its checkout before taking any lock: the release leaves later each round, so that in
      // some rounds it reaches the interpreter's lock first and in others the confirmation does.
      const [confirmed, released] = await Promise.all([
        confirm(other, ana.id),
        new Promise((resolve) => setTimeout(resolve, round * 25)).then(() => release(onHold)),
      ]);
      const answers = [released, confirmed];
      expect(answers.filter((res) => res.errors === undefined)).toHaveLength(1);
      expect(refusalOf(answers.find((res) => res.errors)!)).toMatch(/^Overlap: /);
      const statuses = [(await restBooking(onHold)).status, (await restBooking(other)).status];
      expect([
        ['awaiting_payment', 'requested'],
        ['on_hold', 'awaiting_payment'],
      ]).toContainEqual(statuses);
    }
  });

  it('shows the client the interpreter’s name and qualifications on both doors, never the e-mail', async () => {
    const start = freshStart();
    const ana = await create({ name: 'Ana Court', qualifications: ['COURT_CERTIFIED'] });
    const id = await book({ scheduled_at: start.toISOString(), setting: 'deposition' });
    expect((await restBooking(id)).interpreter).toBeNull();
    expect((await confirm(id, ana.id)).data!.confirmInterpretationAvailability.interpreterName).toBe('Ana Court');
    const rest = await restBooking(id);
    expect(rest).toMatchObject({
      interpreter_name: 'Ana Court',
      interpreter: { name: 'Ana Court', qualifications: ['COURT_CERTIFIED'] },
    });
    const gql = await t.gql(BookingInterpreterDocument, { id }, alice.key);
    expect(gql.data!.interpretationBooking!.interpreter).toEqual({
      name: 'Ana Court',
      qualifications: ['COURT_CERTIFIED'],
    });
    const list = await t.rest.get('/api/v1/interpretation-bookings', alice.key).expect(200);
    for (const body of [rest, gql.data, list.body]) expect(JSON.stringify(body)).not.toContain(ana.email);
  });

  it('refuses a translator, and keeps the polled read to the statements of a booking without an interpreter', async () => {
    const start = freshStart();
    const ana = await create();
    const id = await book({ scheduled_at: start.toISOString() });
    expect(errorsOf(await confirm(id, ana.id, translator))?.code).toBe('FORBIDDEN');
    const count = async () =>
      statements.of(await t.rest.get(`/api/v1/interpretation-bookings/${id}`, alice.key).expect(200)).length;
    const without = await count();
    expect((await confirm(id, ana.id)).errors).toBeUndefined();
    expect(await count()).toBe(without);
    expect(without).toBeLessThanOrEqual(2);
  });
});

describe('who may be confirmed for a booking (D32, the console’s choice)', () => {
  const qualified = async (bookingId: string) => {
    const res = await t.gql(QualifiedForDocument, { bookingId }, desk);
    expect(res.errors).toBeUndefined();
    return res.data!.interpreters.items.map((i) => i.name);
  };

  it('lists those who speak, work in the mode, hold the qualification and are free, its own time left out', async () => {
    const start = freshStart();
    const court = { source_language: 'ko', scheduled_at: start.toISOString(), setting: 'court' };
    const id = await book(court);
    const cert: Partial<InterpreterInput> = { languages: ['ko'], qualifications: ['COURT_CERTIFIED'] };
    const kim = await create({ ...cert, name: 'Kim Court' });
    await create({ name: 'Kai Uncertified', languages: ['ko'] });
    await create({ ...cert, name: 'Kit On Site', modes: ['ON_SITE'] });
    const busy = await create({ ...cert, name: 'Kay Busy' });
    expect((await confirm(await book({ ...court, scheduled_at: at(start, 45) }), busy.id)).errors).toBeUndefined();
    const gone = await create({ ...cert, name: 'Ken Gone' });
    await t.gql(UpdateInterpreterDocument, { id: gone.id, input: { active: false } }, desk);

    expect(await qualified(id)).toEqual(['Kim Court']);
    expect((await confirm(id, kim.id)).errors).toBeUndefined();
    expect(await qualified(id)).toEqual(['Kim Court']);
  });

  it('refuses an unknown booking beside its argument, and a translator', async () => {
    const unknown = await t.gql(QualifiedForDocument, { bookingId: '00000000-0000-4000-8000-000000000000' }, desk);
    expect(errorsOf(unknown)).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { bookingId: ['No booking has this id.'] },
    });
    const id = await book({ scheduled_at: freshStart().toISOString() });
    expect(errorsOf(await t.gql(QualifiedForDocument, { bookingId: id }, translator))?.code).toBe('FORBIDDEN');
  });

  it('lists inactive records too when asked, for the records screen', async () => {
    const gone = await create({ name: 'Zz Inactive' });
    await t.gql(UpdateInterpreterDocument, { id: gone.id, input: { active: false } }, desk);
    const names = async (includeInactive?: boolean) =>
      (await t.gql(AllInterpretersDocument, { includeInactive }, desk)).data!.interpreters.items.map((i) => i.name);
    expect(await names()).not.toContain('Zz Inactive');
    expect(await names(true)).toContain('Zz Inactive');
  });
});
