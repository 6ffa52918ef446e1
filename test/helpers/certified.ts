import { StaffRole, StaffUser } from '../../src/domain/staff/staff-user.entity';
import type { TestAccount } from './fixtures';
import type { TestApp } from './test-app';

/** A quote for `fileIds`, converted and paid at the sandbox checkout: the order's id. */
export async function paidOrder(t: TestApp, account: TestAccount, fileIds: string[], serviceType: string, extra: object = {}): Promise<string> {
  const quote = (await t.rest.post('/api/v1/quotes', { source_language: 'es', target_language: 'en', service_type: serviceType, file_ids: fileIds, ...extra }, account.key).expect(201)).body.data;
  const converted = (await t.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, account.key).expect(201)).body;
  await t.rest.raw().post(`${converted.provider_approval_url.replace(t.config.appUrl, '')}/pay`).type('form').send({}).expect(200);
  return converted.data.id as string;
}

/** Polls GET /orders/{id} as the client would until the order reaches `status`. */
export async function waitForStatus(t: TestApp, account: TestAccount, id: string, status: string) {
  for (let i = 0; i < 200; i++) {
    const order = (await t.rest.get(`/api/v1/orders/${id}`, account.key).expect(200)).body.data;
    if (order.status === status) return order;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`order ${id} never reached ${status}`);
}

/** The bytes behind a signed link, fetched without a key. */
export const download = async (t: TestApp, url: string): Promise<Buffer> =>
  (
    await t.rest
      .get(url.replace(t.config.appUrl, ''))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200)
  ).body as Buffer;

let counter = 0;

/** A staff member with a known id, name and credentials, made as the CLI makes one. */
export async function createStaffMember(t: TestApp, { role = StaffRole.STAFF, name = 'Sam Staff', credentials = null as string | null } = {}) {
  const ctx = { em: t.orm.em.fork(), requestId: 'test', actor: null };
  const { staffUser, token } = await t.services.staff.create(ctx, { email: `desk-${Date.now().toString(36)}${counter++}@example.test`, name, role });
  if (credentials) await t.orm.em.fork().nativeUpdate(StaffUser, { id: staffUser.id }, { credentials });
  return { id: staffUser.id, email: staffUser.email, name, token };
}

/** A PDF's text page by page, and all of it. */
export async function pdfText(bytes: Buffer): Promise<{ pages: string[]; text: string }> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return { pages: text, text: text.join('\n') };
}
