import { cleanEnv, CLI, run } from '../helpers/service-process';
import {
  AuditLogDocument,
  DeactivateStaffUserDocument,
  RotateStaffTokenDocument,
  StaffUsersDocument,
  UpdateStaffProfileDocument,
} from '../graphql/generated';
import { createStaffMember } from '../helpers/certified';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createStaffMember>>;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createStaffMember(t, { name: 'Ada Admin', role: StaffRole.ADMIN });
});
afterAll(() => t.close());

const works = async (token: string) =>
  (await t.gql(StaffUsersDocument, {}, token)).errors?.[0]?.extensions?.code ?? 'OK';
const actions = async (id: string) =>
  (await t.gql(AuditLogDocument, { resourceId: id, perPage: 100 }, admin.token)).data!.auditLog.items.map(
    (entry) => entry.action,
  );

describe('staff accounts (D13)', () => {
  it("updates one's own profile; someone else's only as an admin; audited with before and after", async () => {
    const sam = await createStaffMember(t);
    const own = await t.gql(
      UpdateStaffProfileDocument,
      { id: sam.id, name: 'Samuel Staff', credentials: 'ATA-certified translator no. 654321' },
      sam.token,
    );
    expect(own.data!.updateStaffProfile).toEqual({
      id: sam.id,
      name: 'Samuel Staff',
      credentials: 'ATA-certified translator no. 654321',
    });
    const other = await t.gql(UpdateStaffProfileDocument, { id: admin.id, name: 'Mallory' }, sam.token);
    expect(other.errors![0].extensions!.code).toBe('FORBIDDEN');
    const byAdmin = await t.gql(
      UpdateStaffProfileDocument,
      { id: sam.id, name: 'Samuel Staff', credentials: null },
      admin.token,
    );
    expect(byAdmin.data!.updateStaffProfile.credentials).toBeNull();
    const invalid = await t.gql(UpdateStaffProfileDocument, { id: sam.id, name: ' ' }, sam.token);
    expect(invalid.errors![0].extensions!.errors).toEqual({ name: ['The name field is required.'] });
    const audit = (await t.gql(AuditLogDocument, { resourceId: sam.id }, admin.token)).data!.auditLog.items;
    expect(audit[0]).toMatchObject({
      action: 'staff_user.update_profile',
      actorId: admin.id,
      details: { before: { credentials: 'ATA-certified translator no. 654321' }, after: { credentials: null } },
    });
  });

  it('deactivates a staff user (admins only): the token answers 401 at once', async () => {
    const leaver = await createStaffMember(t);
    expect(await works(leaver.token)).toBe('OK');
    expect((await t.gql(DeactivateStaffUserDocument, { id: admin.id }, leaver.token)).errors![0].extensions!.code).toBe(
      'FORBIDDEN',
    );
    expect(
      (await t.gql(DeactivateStaffUserDocument, { id: admin.id }, admin.token)).errors![0].extensions!.errors,
    ).toEqual({ id: ['You cannot deactivate yourself.'] });
    const done = await t.gql(DeactivateStaffUserDocument, { id: leaver.id }, admin.token);
    expect(done.data!.deactivateStaffUser.deactivatedAt).toMatch(/Z$/);
    expect(await works(leaver.token)).toBe('UNAUTHENTICATED');
    await t.rest.get('/api/v1/me', leaver.token).expect(401);
    expect(await actions(leaver.id)).toEqual(['staff_user.deactivate', 'staff_user.create']);
  });

  it("rotates one's own token: the new one is shown once, the old one answers 401 at once", async () => {
    const sam = await createStaffMember(t);
    const rotated = await t.gql(RotateStaffTokenDocument, {}, sam.token);
    const token = rotated.data!.rotateStaffToken.token;
    expect(token).toMatch(/^ltk_staff_[A-Za-z0-9]{40}$/);
    expect(await works(sam.token)).toBe('UNAUTHENTICATED');
    expect(await works(token)).toBe('OK');
    expect(JSON.stringify(await actions(sam.id))).not.toContain(token);
    expect(await actions(sam.id)).toContain('staff_user.rotate_token');
  });

  it('gives a locked-out admin a new token from the command line (staff:rotate)', async () => {
    const env = cleanEnv({
      DATABASE_URL: t.database.url,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-cli-')),
      LOG_LEVEL: 'silent',
    });
    const rotated = await run(CLI, ['staff:rotate', '--email', admin.email], env);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toHaveLength(1);
    expect(await works(admin.token)).toBe('UNAUTHENTICATED');
    admin.token = rotated.stdout[0];
    expect(await works(admin.token)).toBe('OK');
    const log = (await t.gql(AuditLogDocument, { resourceId: admin.id, perPage: 100 }, admin.token)).data!.auditLog
      .items;
    expect(log.find((entry) => entry.action === 'staff_user.rotate_token')).toMatchObject({
      actorLabel: 'command line',
    });
    const unknown = await run(CLI, ['staff:rotate', '--email', 'nobody@example.test'], env);
    expect([unknown.code, unknown.stderr]).toEqual([1, ['--email: No staff user has this e-mail address.']]);
  });
});
