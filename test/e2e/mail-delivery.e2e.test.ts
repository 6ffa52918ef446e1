import { ABANDONED_AFTER_HOURS } from '../../src/domain/mail/mail-delivery.service';
import { OutboxMailer, REPLACED, SENT_EMAIL_SEAL } from '../../src/domain/mail/outbox-mailer';
import { SentEmail } from '../../src/domain/mail/sent-email.entity';
import { TextSeal } from '../../src/domain/shared/text-seal';
import { ProviderUnavailableError } from '../../src/shared/errors';
import { ApproveAccountDocument, RegenerateApiKeyDocument, SentEmailsDocument } from '../graphql/generated';
import { createPendingAccount, createStaffToken } from '../helpers/fixtures';
import { pollUntil } from '../helpers/poll';
import { startSmtpSink } from '../helpers/smtp-sink';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** Production mail (D17): sealed in the outbox with the change that sends it, delivered over SMTP after the commit. */
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let production: TestApp;
let staff: string;
let seal: TextSeal;
beforeAll(async () => {
  smtp = await startSmtpSink();
  production = await startTestApp({
    config: { env: 'production', mail: { driver: 'smtp', url: smtp.url, from: 'Keys <keys@example.test>' } },
  });
  staff = await createStaffToken(production);
  seal = new TextSeal(SENT_EMAIL_SEAL, production.config.appKey, []);
});
afterAll(async () => {
  await production.close();
  await smtp.close();
});
afterEach(() => Object.assign(smtp.mode, { refuse: false, refuseSender: false, hold: null }));

const FIRST_TRY = { retryCount: 0, retryLimit: 8 };
const LAST_TRY = { retryCount: 8, retryLimit: 8 };
const LIVE_KEY = /ltk_live_[A-Za-z0-9]{40}/;

/** Timestamps as the driver returns them to a raw statement: text. */
interface OutboxRow {
  id: string;
  text: string;
  delivered_at: string | null;
  failed_at: string | null;
  failure: string | null;
}

const sql = <T = Record<string, unknown>>(app: TestApp, statement: string, params: unknown[] = []): Promise<T[]> =>
  app.orm.em.fork().getConnection().execute(statement, params);
const outboxOf = (app: TestApp, to: string) =>
  sql<OutboxRow>(
    app,
    `SELECT id, text, delivered_at, failed_at, failure FROM sent_emails WHERE "to" = ? ORDER BY created_at`,
    [to],
  );
const jobsOf = (emailId: string) =>
  sql<{ state: string; retry_count: number; retry_limit: number }>(
    production,
    `SELECT state, retry_count, retry_limit FROM pgboss.job WHERE name = 'deliver-email' AND data->>'emailId' = ?`,
    [emailId],
  );
/** The key a delivered message carries, its quoted-printable soft line breaks undone. */
const keyIn = (mail: { raw: string }) => mail.raw.replace(/=\r?\n/g, '').match(LIVE_KEY)![0];
const receivedBy = (to: string) => smtp.received.filter((mail) => mail.to.includes(to));
const deliver = (id: string, attempt = FIRST_TRY, app = production) =>
  app.services.mailDelivery!.deliver(app.orm.em.fork(), id, attempt);
const untilJob = (emailId: string, state: string) =>
  pollUntil(
    () => jobsOf(emailId),
    ([job]) => job?.state === state,
    { failure: (jobs) => `jobs: ${JSON.stringify(jobs)}` },
  );
const untilRow = (to: string, done: (row: OutboxRow) => boolean) =>
  pollUntil(
    () => outboxOf(production, to),
    (rows) => rows.length > 0 && rows.every(done),
    { failure: (rows) => `outbox: ${JSON.stringify(rows)}` },
  );

/** Holds every message at the sink until `release()`: the server "has" it meanwhile. */
function holdMail(): { release: () => void } {
  let release!: () => void;
  smtp.mode.hold = new Promise<void>((resolve) => (release = resolve));
  return { release };
}

/** A sealed message in the outbox with no delivery job: only the test delivers it, so no worker races the test. */
async function unqueuedMessage(app: TestApp, fields: Partial<SentEmail> = {}, sealWith = seal): Promise<SentEmail> {
  const em = app.orm.em.fork();
  const to = `direct-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  const email = Object.assign(new SentEmail(), {
    kind: 'test',
    from: 'keys@example.test',
    to,
    subject: 'Hello',
    ...fields,
  });
  email.text ??= sealWith.seal('Body', email.id);
  await em.persist(email).flush();
  return email;
}

async function approve(): Promise<{ id: string; email: string }> {
  const pending = await createPendingAccount(production, staff);
  const approved = await production.gql(ApproveAccountDocument, { id: pending.id }, staff);
  expect(approved.errors).toBeUndefined();
  expect(approved.data!.approveAccount.status).toBe('APPROVED');
  return pending;
}

it('shows staff every message and its delivery state outside the sandbox, never its text (D28)', async () => {
  const pending = await approve();
  await untilRow(pending.email, (found) => found.delivered_at !== null);
  const { data, errors } = await production.gql(SentEmailsDocument, { to: pending.email }, staff);
  expect(errors).toBeUndefined();
  expect(data!.sentEmails.items).toEqual([
    expect.objectContaining({
      kind: 'api_key',
      text: null,
      deliveredAt: expect.stringMatching(/Z$/),
      failedAt: null,
      failure: null,
    }),
  ]);
});

it('answers the approval before the mail server has the key, keeps it sealed meanwhile, then delivers it and keeps no text', async () => {
  const held = holdMail();
  const pending = await approve();
  // The server cannot have answered yet: the approval did not wait for it.
  expect(receivedBy(pending.email)).toHaveLength(0);
  const [waiting] = await outboxOf(production, pending.email);
  expect(waiting).toMatchObject({ delivered_at: null, failed_at: null });
  expect(waiting.text).toMatch(/^sealed:v1:/);
  expect(waiting.text).not.toMatch(LIVE_KEY);
  expect(seal.open(waiting.text, waiting.id)).toMatch(LIVE_KEY);
  held.release();

  const [row] = await untilRow(pending.email, (found) => found.delivered_at !== null);
  const [mail] = receivedBy(pending.email);
  expect(mail).toMatchObject({ from: 'keys@example.test', to: [pending.email] });
  expect(mail.raw).toMatch(new RegExp(`^Message-ID: <${row.id}@example\\.test>`, 'mi'));
  const key = keyIn(mail);
  await production.rest.get('/api/v1/me', key).expect(200);
  expect(row).toMatchObject({ text: '', failed_at: null, failure: null });
  await untilJob(row.id, 'completed');
});

it('notes a temporary refusal and leaves the job to pg-boss to retry, and the retry delivers', async () => {
  smtp.mode.refuse = 451;
  const pending = await approve();
  const [refused] = await untilRow(pending.email, (found) => found.failure !== null);
  expect(refused).toMatchObject({
    delivered_at: null,
    failed_at: null,
    failure: expect.stringContaining('Mailbox unavailable'),
  });
  expect(seal.open(refused.text, refused.id)).toMatch(LIVE_KEY);
  expect(receivedBy(pending.email)).toHaveLength(0);
  const [job] = await untilJob(refused.id, 'retry');
  expect(job).toMatchObject({ retry_count: 0, retry_limit: 8 });

  // The retry, as pg-boss runs it about 30 s later, once the server accepts again.
  smtp.mode.refuse = false;
  await deliver(refused.id, { retryCount: 1, retryLimit: 8 });
  expect(receivedBy(pending.email)).toHaveLength(1);
  const [delivered] = await outboxOf(production, pending.email);
  expect(delivered).toMatchObject({ text: '', failure: null, failed_at: null });
  expect(delivered.delivered_at).not.toBeNull();
});

it('gives a message up at once on a permanent refusal: marked failed, its text blanked, not retried', async () => {
  smtp.mode.refuse = 550;
  const pending = await approve();
  const [row] = await untilRow(pending.email, (found) => found.failed_at !== null);
  expect(row).toMatchObject({ text: '', delivered_at: null, failure: expect.stringContaining('Mailbox unavailable') });
  await untilJob(row.id, 'completed');
});

it("retries a 5xx that is the deployment's to fix (a refused sender), rather than giving the message up", async () => {
  smtp.mode.refuseSender = true;
  const email = await unqueuedMessage(production);
  await expect(deliver(email.id)).rejects.toBeInstanceOf(ProviderUnavailableError);
  const [row] = await outboxOf(production, email.to);
  expect(row).toMatchObject({
    delivered_at: null,
    failed_at: null,
    failure: expect.stringContaining('Sender address rejected'),
  });
  expect(seal.open(row.text, row.id)).toBe('Body');
});

it('retries a message this process cannot open (an APP_KEY rotation under way), and gives it up after the last try', async () => {
  const email = await unqueuedMessage(production, {}, new TextSeal(SENT_EMAIL_SEAL, 'c'.repeat(64), []));
  await expect(deliver(email.id)).rejects.toThrow(/does not open/);
  const [noted] = await outboxOf(production, email.to);
  expect(noted).toMatchObject({
    delivered_at: null,
    failed_at: null,
    failure: expect.stringContaining('does not open'),
  });
  expect(noted.text).toMatch(/^sealed:v1:/);
  await deliver(email.id, LAST_TRY);
  const [row] = await outboxOf(production, email.to);
  expect(row).toMatchObject({ text: '', delivered_at: null });
  expect(row.failed_at).not.toBeNull();
  expect(receivedBy(email.to)).toHaveLength(0);
});

it('gives a message up after the last try of a temporary refusal, and a later run leaves it alone', async () => {
  smtp.mode.refuse = 451;
  const email = await unqueuedMessage(production);
  await deliver(email.id, LAST_TRY);
  const [row] = await outboxOf(production, email.to);
  expect(row).toMatchObject({ text: '', delivered_at: null, failure: expect.stringContaining('Mailbox unavailable') });
  expect(row.failed_at).not.toBeNull();
  smtp.mode.refuse = false;
  await deliver(email.id);
  expect(receivedBy(email.to)).toHaveLength(0);
});

it('notes an unreachable mail server as a refusal to retry', async () => {
  // Its own app: the SMTP address is fixed at start, and port 9 has nothing listening. No workers: the test is the job.
  const unreachable = await startTestApp({
    databaseOf: production,
    workers: false,
    config: { env: 'production', mail: { driver: 'smtp', url: 'smtp://127.0.0.1:9', from: 'keys@example.test' } },
  });
  try {
    const email = await unqueuedMessage(unreachable);
    await expect(deliver(email.id, FIRST_TRY, unreachable)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const [row] = await outboxOf(unreachable, email.to);
    expect(row).toMatchObject({ delivered_at: null, failed_at: null, failure: expect.stringMatching(/ECONNREFUSED/) });
    expect(seal.open(row.text, row.id)).toBe('Body');
  } finally {
    await unreachable.close();
  }
});

it('sends a message once when runs of its job overlap, holding no row lock while the server has it', async () => {
  const held = holdMail();
  const email = await unqueuedMessage(production);
  const outcomes: string[] = [];
  const runs = [deliver(email.id), deliver(email.id), deliver(email.id)].map((run) =>
    run.then(
      () => void outcomes.push('delivered'),
      (error: Error) => void outcomes.push(error.message),
    ),
  );
  // Two runs find the claim while the first is still waiting for the server, and are left to pg-boss to retry.
  await pollUntil(
    async () => outcomes,
    (settled) => settled.length === 2,
    { failure: (settled) => `outcomes: ${JSON.stringify(settled)}` },
  );
  expect(outcomes).toEqual([
    expect.stringMatching(/being delivered by another run/),
    expect.stringMatching(/being delivered by another run/),
  ]);
  // Nothing is locked meanwhile: the sender's own statements on the row are not kept waiting.
  await production.orm.em
    .fork()
    .transactional((em) =>
      em
        .getConnection()
        .execute(
          `SELECT 1 FROM sent_emails WHERE id = ? FOR UPDATE NOWAIT`,
          [email.id],
          'all',
          em.getTransactionContext(),
        ),
    );
  held.release();
  await Promise.all(runs);
  expect(outcomes[2]).toBe('delivered');
  expect(receivedBy(email.to)).toHaveLength(1);
  // A retry of either run finds it delivered.
  await deliver(email.id, { retryCount: 1, retryLimit: 8 });
  expect(receivedBy(email.to)).toHaveLength(1);
  const [row] = await outboxOf(production, email.to);
  expect(row.delivered_at).not.toBeNull();
});

it('records a message withdrawn while the server had it as both: replaced, and delivered after all', async () => {
  const held = holdMail();
  const first = await unqueuedMessage(production, { kind: 'api_key' });
  const sending = deliver(first.id);
  await pollUntil(
    () => sql(production, `SELECT sending_since FROM sent_emails WHERE id = ?`, [first.id]),
    ([row]) => row?.sending_since != null,
    { failure: () => 'never claimed' },
  );
  const mailer = new OutboxMailer('keys@example.test', { queue: production.queue, seal });
  await production.orm.em.fork().transactional((em) =>
    mailer.send(em, {
      kind: 'api_key',
      to: first.to,
      subject: 'Your new API key',
      text: 'New key',
      replacesUnsent: true,
    }),
  );
  held.release();
  await sending;
  const [row] = (await outboxOf(production, first.to)).filter((found) => found.id === first.id);
  expect(row).toMatchObject({ text: '', failure: REPLACED });
  expect(row.failed_at).not.toBeNull();
  expect(row.delivered_at).not.toBeNull();
});

it('withdraws a key e-mail still waiting for delivery when a new key is issued, so only the working key arrives', async () => {
  smtp.mode.refuse = 451;
  const pending = await approve();
  const [first] = await untilRow(pending.email, (found) => found.failure !== null);
  const regenerated = await production.gql(RegenerateApiKeyDocument, { accountId: pending.id }, staff);
  expect(regenerated.errors).toBeUndefined();
  // The new key's first try is refused too; the old one is withdrawn.
  const [withdrawn, second] = await untilRow(pending.email, (found) => found.failure !== null);
  expect(withdrawn).toMatchObject({ id: first.id, text: '', delivered_at: null, failure: REPLACED });
  expect(withdrawn.failed_at).not.toBeNull();
  expect(second).toMatchObject({ failed_at: null, failure: expect.stringContaining('Mailbox unavailable') });

  // Both jobs' retries, once the server accepts again: only the new key goes out.
  smtp.mode.refuse = false;
  await deliver(first.id, { retryCount: 1, retryLimit: 8 });
  await deliver(second.id, { retryCount: 1, retryLimit: 8 });
  const mails = receivedBy(pending.email);
  expect(mails).toHaveLength(1);
  expect(keyIn(mails[0]).slice(-4)).toBe(regenerated.data!.regenerateApiKey.apiKeyLast4);
});

it('gives up a message whose delivery job has ended unsettled, and leaves alone one whose job still runs', async () => {
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  const orphan = await unqueuedMessage(production, { createdAt: hoursAgo(ABANDONED_AFTER_HOURS + 1) });
  const retrying = await unqueuedMessage(production, { createdAt: hoursAgo(ABANDONED_AFTER_HOURS + 1) });
  // Its job waits for a retry an hour away (a backlog, a long outage).
  await sql(
    production,
    `INSERT INTO pgboss.job (name, data, state, start_after) VALUES ('deliver-email', jsonb_build_object('emailId', ?::text), 'retry', now() + interval '1 hour')`,
    [retrying.id],
  );
  const recent = await unqueuedMessage(production);
  const sandboxRow = await unqueuedMessage(production, {
    createdAt: hoursAgo(ABANDONED_AFTER_HOURS + 1),
    text: 'A sandbox message staff read',
  });

  await production.services.mailDelivery!.abandonStale(production.orm.em.fork());
  const [abandoned] = await outboxOf(production, orphan.to);
  expect(abandoned).toMatchObject({ text: '', delivered_at: null, failure: 'No delivery attempt finished.' });
  expect(abandoned.failed_at).not.toBeNull();
  for (const kept of [retrying, recent]) {
    const [row] = await outboxOf(production, kept.to);
    expect(row).toMatchObject({ failed_at: null, delivered_at: null });
    expect(seal.open(row.text, row.id)).toBe('Body');
  }
  expect((await outboxOf(production, sandboxRow.to))[0]).toMatchObject({
    text: 'A sandbox message staff read',
    failed_at: null,
  });
});

it("queues delivery in the sender's transaction: a change rolled back leaves neither a message nor a job", async () => {
  const mailer = new OutboxMailer('keys@example.test', { queue: production.queue, seal });
  const message = (to: string) => ({ kind: 'test', to, subject: 'Hello', text: 'Body' });
  const rolledBack = `rolled-back-${Date.now()}@example.test`;
  await expect(
    production.orm.em.fork().transactional(async (em) => {
      await mailer.send(em, message(rolledBack));
      throw new Error('the change fails after sending');
    }),
  ).rejects.toThrow('the change fails after sending');
  expect(await outboxOf(production, rolledBack)).toEqual([]);
  const [{ orphans }] = await sql(
    production,
    `SELECT count(*)::int AS orphans FROM pgboss.job j WHERE name = 'deliver-email' AND NOT EXISTS (SELECT 1 FROM sent_emails e WHERE e.id::text = j.data->>'emailId')`,
  );
  expect(orphans).toBe(0);

  const committed = `committed-${Date.now()}@example.test`;
  await production.orm.em.fork().transactional((em) => mailer.send(em, message(committed)));
  const [row] = await outboxOf(production, committed);
  expect(await jobsOf(row.id)).toHaveLength(1);
  await pollUntil(
    async () => receivedBy(committed),
    (mails) => mails.length === 1,
    { failure: () => 'the committed message was not delivered' },
  );
});

it('queues nothing in the sandbox: its outbox keeps the text for staff to read', async () => {
  const sandbox = await startTestApp({ databaseOf: production, workers: false });
  try {
    const sandboxStaff = await createStaffToken(sandbox);
    const pending = await createPendingAccount(sandbox, sandboxStaff);
    expect((await sandbox.gql(ApproveAccountDocument, { id: pending.id }, sandboxStaff)).errors).toBeUndefined();
    const [row] = await outboxOf(sandbox, pending.email);
    expect(row.text).toMatch(/ltk_test_[A-Za-z0-9]{40}/);
    expect(await jobsOf(row.id)).toEqual([]);
  } finally {
    await sandbox.close();
  }
});
