import type { EntityManager } from '@mikro-orm/core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { SentEmail } from '../src/domain/mail/sent-email.entity';
import { OPERATOR, type Ctx } from '../src/domain/identity/context';
import { StaffRole } from '../src/domain/identity/staff-user.entity';
import type { Services } from '../src/services';

export type Call = (
  method: string,
  path: string,
  body?: string | FormData,
) => Promise<{ data: { id: string; status?: string } } & Record<string, unknown>>;

export interface Seeded {
  key: string;
  /** The staff admin's token, for the desk's queues. */
  staffToken: string;
  orderIds: string[];
  bookingIds: string[];
}

/**
 * One account polling `count` orders and `count` bookings in the states integrators see: most orders paid and
 * translated (completed, with signed links), some waiting for payment, some cancelled; bookings requested or
 * awaiting payment. Made through the service's own doors, as a client and staff would. Several seeded accounts
 * in one database each need a `name` of their own.
 */
export async function seed(
  em: EntityManager,
  services: Services,
  call: (key: string) => Call,
  base: string,
  count: number,
  name = 'bench',
): Promise<Seeded> {
  const { key, staffCtx, staffToken } = await apiKey(em, services, name);
  const client = call(key);
  const fileIds: string[] = [];
  for (let i = 0; i < 2; i++) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([await onePagePdf(`Document ${i}: the parties agree as follows.`)], { type: 'application/pdf' }),
      `doc-${i}.pdf`,
    );
    fileIds.push((await client('POST', '/api/v1/files', form)).data.id);
  }
  const orderIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const addons = i % 4 === 0 ? [{ code: 'rush_2h' }] : [];
    const quote = await client(
      'POST',
      '/api/v1/quotes',
      JSON.stringify({
        source_language: 'es',
        target_language: 'en',
        service_type: 'standard',
        file_ids: fileIds,
        addons,
        reference: `Matter ${i}`,
      }),
    );
    const converted = await client('POST', `/api/v1/quotes/${quote.data.id}/convert`);
    orderIds.push(converted.data.id);
    if (i % 10 === 1) await client('POST', `/api/v1/orders/${converted.data.id}/cancel`);
    else if (i % 10 !== 0) await pay(base, String(converted.provider_approval_url));
  }
  const bookingIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const booking = {
      source_language: 'es',
      target_language: 'en',
      mode: 'video_remote',
      scheduled_at: '2030-12-01T09:30:00Z',
      duration_hours: 1 + (i % 4) / 2,
    };
    const id = (await client('POST', '/api/v1/interpretation-bookings', JSON.stringify(booking))).data.id;
    if (i % 3 === 0)
      await services.bookings.confirmAvailability({ ...staffCtx, em: em.fork() }, id, { interpreterName: 'Ana Ruiz' });
    bookingIds.push(id);
  }
  // Poll settled orders: translation jobs would otherwise share the CPU with the measurement.
  while (
    (
      (await em
        .fork()
        .getConnection()
        .execute(`SELECT count(*)::int AS n FROM orders WHERE status = 'processing'`)) as { n: number }[]
    )[0].n > 0
  ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { key, staffToken, orderIds, bookingIds };
}

/** A staff user approves an account; the key is read from the sandbox outbox, as a person would. */
async function apiKey(
  em: EntityManager,
  services: Services,
  name: string,
): Promise<{ key: string; staffCtx: Ctx; staffToken: string }> {
  const ctx: Ctx = { em, requestId: 'bench', actor: OPERATOR };
  const { staffUser, token: staffToken } = await services.staff.create(ctx, {
    email: `${name}-staff@example.test`,
    name: 'Bench',
    role: StaffRole.ADMIN,
  });
  const staffCtx: Ctx = { ...ctx, actor: { kind: 'staff', staff: staffUser } };
  const email = `${name}@example.test`;
  const account = await services.accounts.create(staffCtx, { name: `${name} LLP`, email });
  await services.accounts.approve(staffCtx, account.id);
  const mail = await em.findOneOrFail(SentEmail, { to: email }, { orderBy: { createdAt: 'desc' } });
  return { key: /ltk_test_[A-Za-z0-9]{40}/.exec(mail.text)![0], staffCtx, staffToken };
}

/** Pay at the sandbox's hosted checkout page. */
async function pay(base: string, approvalUrl: string): Promise<void> {
  const paid = await fetch(`${base}${new URL(approvalUrl).pathname}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  if (paid.status !== 200) throw new Error(`sandbox checkout: ${paid.status}`);
}

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc
    .addPage([612, 792])
    .drawText(text, { x: 40, y: 740, size: 11, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}
