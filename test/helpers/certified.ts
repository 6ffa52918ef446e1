import { StaffRole, StaffUser } from '../../src/domain/identity/staff-user.entity';
import type { TestApp } from './test-app';
import { OPERATOR } from '../../src/domain/identity/context';

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
export async function createStaffMember(
  t: TestApp,
  { role = StaffRole.DESK, name = 'Sam Staff', credentials = null as string | null } = {},
) {
  const ctx = { em: t.orm.em.fork(), requestId: 'test', actor: OPERATOR };
  const { staffUser, token } = await t.services.staff.create(ctx, {
    email: `desk-${Date.now().toString(36)}${counter++}@example.test`,
    name,
    role,
  });
  if (credentials) await t.orm.em.fork().nativeUpdate(StaffUser, { id: staffUser.id }, { credentials });
  return { id: staffUser.id, email: staffUser.email, name, token };
}

/** A PDF's text page by page, and all of it. */
export async function pdfText(bytes: Buffer): Promise<{ pages: string[]; text: string }> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return { pages: text, text: text.join('\n') };
}

/** A notarization as the desk records it (D21): a New York notary, an hour ago. */
export const notarizationDetails = () => ({
  notaryName: 'Nora Notary',
  commissionNumber: '01NO6123456',
  jurisdiction: 'State of New York, County of Kings',
  commissionExpiresOn: '2030-06-30',
  notarizedAt: new Date(Date.now() - 3600_000).toISOString(),
});
