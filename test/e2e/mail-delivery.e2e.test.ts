import { OutboxMailer } from '../../src/domain/mail/outbox-mailer';
import { SentEmail } from '../../src/domain/mail/sent-email.entity';
import { ProviderUnavailableError } from '../../src/shared/errors';
import { ApproveAccountDocument, SentEmailsDocument } from '../graphql/generated';
import { createPendingAccount, createStaffToken } from '../helpers/fixtures';
import { pollUntil } from '../helpers/poll';
import { startSmtpSink } from '../helpers/smtp-sink';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** Production mail (D17): written to the outbox with the change that sends it, delivered over SMTP after the commit. */
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let production: TestApp;
let staff: string;
beforeAll(async () => {
  smtp = await startSmtpSink();
  production = await startTestApp({ config: { env: 'production', mail: { driver: 'smtp', url: smtp.url, from: 'Keys <keys@example.test>' } } });
  staff = await createStaffToken(production);
});
afterAll(async () => {
  await production.close();
  await smtp.close();
});
afterEach(() => void (smtp.mode.refuse = false));

const FIRST_TRY = { retryCount: 0, retryLimit: 8 };
const LAST_TRY = { retryCount: 8, retryLimit: 8 };

/** Timestamps as the driver returns them to a raw statement: text. */
interface OutboxRow {
  id: string;
  text: string;
  delivered_at: string | null;
  failed_at: string | null;
  failure: string | null;
}

async function outboxOf(app: TestApp, to: string): Promise<OutboxRow[]> {
  return app.orm.em.fork().getConnection().execute(`SELECT id, text, delivered_at, failed_at, failure FROM sent_emails WHERE "to" = ? ORDER BY created_at`, [to]);
}

const receivedBy = (to: string) => smtp.received.filter((mail) => mail.to.includes(to));

/** A message in the outbox with no delivery job: only the test delivers it, so no worker races the test. */
async function unqueuedMessage(app: TestApp): Promise<SentEmail> {
  const em = app.orm.em.fork();
  const email = Object.assign(new SentEmail(), { kind: 'test', from: 'keys@example.test', to: `direct-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`, subject: 'Hello', text: 'Body' });
  await em.persistAndFlush(email);
  return email;
}

it('has no outbox for staff to read outside the sandbox', async () => {
  const { errors } = await production.gql(SentEmailsDocument, {}, staff);
  expect(errors![0].extensions!.code).toBe('NOT_FOUND');
});

it('delivers the key after the approval commits, with a stable Message-ID, and keeps no copy of its text', async () => {
  const pending = await createPendingAccount(production, staff);
  const approved = await production.gql(ApproveAccountDocument, { id: pending.id }, staff);
  expect(approved.errors).toBeUndefined();
  const [mail] = await pollUntil(async () => receivedBy(pending.email), (mails) => mails.length > 0, { failure: () => 'no key e-mail delivered' });
  expect(mail).toMatchObject({ from: 'keys@example.test', to: [pending.email] });
  const key = mail!.raw.match(/ltk_live_[A-Za-z0-9]{40}/)![0];
  expect(key.slice(-4)).toBe(approved.data!.approveAccount.apiKeyLast4);
  await production.rest.get('/api/v1/me', key).expect(200);

  const [row] = await pollUntil(() => outboxOf(production, pending.email), ([found]) => found?.delivered_at != null, { failure: (rows) => `outbox: ${JSON.stringify(rows)}` });
  expect(mail!.raw).toMatch(new RegExp(`^Message-ID: <${row!.id}@example\\.test>`, 'mi'));
  expect(row).toMatchObject({ text: '', failed_at: null, failure: null });
  const [{ n }] = await production.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM sent_emails WHERE text LIKE ?`, [`%${key}%`]);
  expect(n).toBe(0);
  expect(receivedBy(pending.email)).toHaveLength(1);
});

it('approves the account while the mail server refuses, notes the refusal, and delivers the key on a later try', async () => {
  smtp.mode.refuse = true;
  const pending = await createPendingAccount(production, staff);
  const approved = await production.gql(ApproveAccountDocument, { id: pending.id }, staff);
  expect(approved.errors).toBeUndefined();
  expect(approved.data!.approveAccount.status).toBe('APPROVED');

  // The worker's first try is refused; the job will run again later, with backoff.
  const [refused] = await pollUntil(() => outboxOf(production, pending.email), ([found]) => found?.failure != null, { failure: (rows) => `outbox: ${JSON.stringify(rows)}` });
  expect(refused).toMatchObject({ delivered_at: null, failed_at: null, failure: expect.stringContaining('Mailbox unavailable') });
  expect(refused!.text).toMatch(/ltk_live_/);
  expect(receivedBy(pending.email)).toHaveLength(0);

  // The next try, as the job's retry runs it, once the server accepts again.
  smtp.mode.refuse = false;
  await production.services.mailDelivery!.deliver(production.orm.em.fork(), refused!.id, { retryCount: 1, retryLimit: 8 });
  expect(receivedBy(pending.email)).toHaveLength(1);
  const [delivered] = await outboxOf(production, pending.email);
  expect(delivered).toMatchObject({ text: '', failure: null, failed_at: null });
  expect(delivered!.delivered_at).not.toBeNull();
});

it('gives a message up after the last try: marked failed, its text blanked, nothing sent', async () => {
  smtp.mode.refuse = true;
  const email = await unqueuedMessage(production);
  await production.services.mailDelivery!.deliver(production.orm.em.fork(), email.id, LAST_TRY);
  const [row] = await outboxOf(production, email.to);
  expect(row).toMatchObject({ text: '', delivered_at: null, failure: expect.stringContaining('Mailbox unavailable') });
  expect(row!.failed_at).not.toBeNull();
  // A run after that (a duplicate job) leaves it alone, even with the server back.
  smtp.mode.refuse = false;
  await production.services.mailDelivery!.deliver(production.orm.em.fork(), email.id, FIRST_TRY);
  expect(receivedBy(email.to)).toHaveLength(0);
});

it('notes an unreachable mail server as a refusal to retry', async () => {
  // Its own app: the SMTP address is fixed at start, and port 9 has nothing listening. No workers: the test is the job.
  const unreachable = await startTestApp({ databaseOf: production, workers: false, config: { env: 'production', mail: { driver: 'smtp', url: 'smtp://127.0.0.1:9', from: 'keys@example.test' } } });
  try {
    const email = await unqueuedMessage(unreachable);
    await expect(unreachable.services.mailDelivery!.deliver(unreachable.orm.em.fork(), email.id, FIRST_TRY)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const [row] = await outboxOf(unreachable, email.to);
    expect(row).toMatchObject({ text: 'Body', delivered_at: null, failed_at: null, failure: expect.stringMatching(/ECONNREFUSED/) });
  } finally {
    await unreachable.close();
  }
});

it('sends a message once when two runs of its job deliver it at the same time', async () => {
  const email = await unqueuedMessage(production);
  const deliver = () => production.services.mailDelivery!.deliver(production.orm.em.fork(), email.id, FIRST_TRY);
  await Promise.all([deliver(), deliver(), deliver()]);
  expect(receivedBy(email.to)).toHaveLength(1);
  const [row] = await outboxOf(production, email.to);
  expect(row!.delivered_at).not.toBeNull();
});

it('queues delivery in the sender\'s transaction: a change rolled back leaves neither a message nor a job', async () => {
  const mailer = new OutboxMailer('keys@example.test', { queue: production.queue });
  const message = (to: string) => ({ kind: 'test', to, subject: 'Hello', text: 'Body' });
  const jobsFor = async (to: string) => {
    const [row] = await outboxOf(production, to);
    if (!row) return 0;
    const [{ n }] = await production.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'deliver-email' AND data->>'emailId' = ?`, [row.id]);
    return n as number;
  };
  const rolledBack = `rolled-back-${Date.now()}@example.test`;
  await expect(
    production.orm.em.fork().transactional(async (em) => {
      await mailer.send(em, message(rolledBack));
      throw new Error('the change fails after sending');
    }),
  ).rejects.toThrow('the change fails after sending');
  expect(await outboxOf(production, rolledBack)).toEqual([]);
  const [{ orphans }] = await production.orm.em
    .fork()
    .getConnection()
    .execute(`SELECT count(*)::int AS orphans FROM pgboss.job j WHERE name = 'deliver-email' AND NOT EXISTS (SELECT 1 FROM sent_emails e WHERE e.id::text = j.data->>'emailId')`);
  expect(orphans).toBe(0);

  const committed = `committed-${Date.now()}@example.test`;
  await production.orm.em.fork().transactional((em) => mailer.send(em, message(committed)));
  expect(await jobsFor(committed)).toBe(1);
  await pollUntil(async () => receivedBy(committed), (mails) => mails.length === 1, { failure: () => 'the committed message was not delivered' });
});
