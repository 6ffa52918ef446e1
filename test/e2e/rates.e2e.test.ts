import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import {
  AuditLogDocument,
  PricingDocument,
  UpdateRateDocument,
  type UpdateRateMutationVariables,
} from '../graphql/generated';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** The admin `updateRate` mutation (docs/decisions.md G4) over the D7 rate card. */
let t: TestApp;
let admin: string;
let staff: string;
let alice: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
  admin = await createStaffToken(t, StaffRole.ADMIN);
  staff = await createStaffToken(t, StaffRole.DESK);
  alice = await createApprovedAccount(t, admin);
});
afterAll(() => t.close());

const booking = {
  source_language: 'es',
  target_language: 'en',
  mode: 'video_remote',
  scheduled_at: '2030-12-01T09:30:00Z',
  duration_hours: 2,
};
const restPricing = async () => (await t.rest.get('/api/v1/pricing').expect(200)).body.data;

describe('updateRate', () => {
  it('changes one line of the rate card for new bookings only, and audits the old and new price', async () => {
    const before = (await t.rest.post('/api/v1/interpretation-bookings', booking, alice.key).expect(201)).body.data;
    expect(before.unit_price_cents).toBe(8500);

    const { data, errors } = await t.gql(
      UpdateRateDocument,
      { interpretationMode: 'VIDEO_REMOTE', priceCents: 9000 },
      admin,
    );
    expect(errors).toBeUndefined();
    expect(data!.updateRate.interpretation.find((rate) => rate.mode === 'VIDEO_REMOTE')!.unitPriceCents).toBe(9000);
    expect(
      (await restPricing()).interpretation.find((rate: { mode: string }) => rate.mode === 'video_remote')
        .unit_price_cents,
    ).toBe(9000);

    const after = (await t.rest.post('/api/v1/interpretation-bookings', booking, alice.key).expect(201)).body.data;
    expect(after).toMatchObject({ unit_price_cents: 9000, total_cents: 18000 });
    expect(
      (await t.rest.get(`/api/v1/interpretation-bookings/${before.id}`, alice.key).expect(200)).body.data,
    ).toMatchObject({ unit_price_cents: 8500, total_cents: 17000 });

    const audit = await t.gql(AuditLogDocument, { resourceId: 'video_remote' }, staff);
    expect(audit.data!.auditLog.items[0]).toMatchObject({
      action: 'rate.update',
      resourceType: 'interpretation_rate',
      resourceId: 'video_remote',
      details: { from_cents: 8500, to_cents: 9000 },
    });
  });

  it('sets translation rates and add-on prices too', async () => {
    await t.gql(UpdateRateDocument, { serviceType: 'CERTIFIED', priceCents: 1090 }, admin);
    await t.gql(UpdateRateDocument, { addonCode: 'hard_copy', priceCents: 0 }, admin);
    const pricing = await restPricing();
    expect(
      pricing.services.find((rate: { service_type: string }) => rate.service_type === 'certified').unit_price_cents,
    ).toBe(1090);
    expect(pricing.addons.find((addon: { code: string }) => addon.code === 'hard_copy').price_cents).toBe(0);
  });

  it('refuses anything but exactly one known line and a sane price, changing nothing', async () => {
    const unchanged = (await t.gql(PricingDocument, {}, admin)).data;
    const cases: [UpdateRateMutationVariables, Record<string, string[]>][] = [
      [{ priceCents: 100 }, { rate: ['Name exactly one rate: service_type, addon_code or interpretation_mode.'] }],
      [
        { priceCents: 100, serviceType: 'STANDARD', addonCode: 'rush_2h' },
        { rate: ['Name exactly one rate: service_type, addon_code or interpretation_mode.'] },
      ],
      [{ priceCents: -1, addonCode: 'rush_2h' }, { priceCents: ['The price cents field must be at least 0.'] }],
      [
        { priceCents: 10_000_001, addonCode: 'rush_2h' },
        { priceCents: ['The price cents field must not be greater than 10000000.'] },
      ],
      [{ priceCents: 100, addonCode: 'gift_wrap' }, { addonCode: ['The selected addon code is invalid.'] }],
    ];
    for (const [variables, errors] of cases) {
      const res = await t.gql(UpdateRateDocument, variables, admin);
      expect(res.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors });
    }
    expect((await t.gql(PricingDocument, {}, admin)).data).toEqual(unchanged);
  });

  it('is for admins only', async () => {
    expect(
      (await t.gql(UpdateRateDocument, { addonCode: 'rush_2h', priceCents: 1 }, staff)).errors![0].extensions!.code,
    ).toBe('FORBIDDEN');
    expect(
      (await t.gql(UpdateRateDocument, { addonCode: 'rush_2h', priceCents: 1 }, alice.key)).errors![0].extensions!.code,
    ).toBe('FORBIDDEN');
    expect((await t.gql(UpdateRateDocument, { addonCode: 'rush_2h', priceCents: 1 })).errors![0].extensions!.code).toBe(
      'UNAUTHENTICATED',
    );
    expect((await restPricing()).addons.find((addon: { code: string }) => addon.code === 'rush_2h').price_cents).toBe(
      3995,
    );
  });
});
