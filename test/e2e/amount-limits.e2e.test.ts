import { CreateQuoteDocument, UpdateRateDocument } from '../graphql/generated';
import { requestBooking } from '../helpers/bookings';
import { blankPagesPdf, png, textlessPdf } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 33 / D30: a client's unit count never bills a scan below its pages, and an amount too large for the books is
 * a 422 on both doors, never a 500.
 */
let t: TestApp;
let staff: string;
let firm: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t);
  firm = await createApprovedAccount(t, staff);
}, 60_000);
afterAll(() => t.close());

const quote = (fields: Record<string, unknown>) =>
  t.rest.post(
    '/api/v1/quotes',
    { source_language: 'es', target_language: 'en', service_type: 'certified', ...fields },
    firm.key,
  );

const quoteViaGraphQL = (fileId: string, unitCount: number) =>
  t.gql(
    CreateQuoteDocument,
    {
      input: { sourceLanguage: 'es', targetLanguage: 'en', serviceType: 'CERTIFIED', fileIds: [fileId], unitCount },
    },
    firm.key,
  );

describe('a unit count for files whose words could not be counted', () => {
  it('may not bill a 50-page scan as one page, on either door; its pages or more are priced', async () => {
    const scan = await uploadFile(t, firm.key, await textlessPdf(50), 'scanned-record.pdf');
    const low = await quote({ file_ids: [scan.id], unit_count: 1 }).expect(422);
    expect(low.body.errors).toEqual({
      unit_count: ['The unit count must be at least 50: the pages of the files whose words could not be counted.'],
    });
    const viaGraphQL = await quoteViaGraphQL(scan.id, 49);
    expect(viaGraphQL.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { unitCount: [expect.stringContaining('at least 50')] },
    });
    const priced = await quote({ file_ids: [scan.id], unit_count: 50 }).expect(201);
    expect(priced.body.data).toMatchObject({ unit_count: 50, document_pages: 50 });
    expect(priced.body.data.total_cents).toBe(50 * priced.body.data.unit_price_cents);
    await quote({ file_ids: [scan.id], unit_count: 60 }).expect(201);
  });

  it('adds the pages of every such file: a photo counts one, a PDF too long to count all of its pages', async () => {
    const photo = await uploadFile(t, firm.key, png(), 'passport.png');
    const long = await uploadFile(t, firm.key, await blankPagesPdf(2001), 'court-record.pdf');
    const low = await quote({ file_ids: [photo.id, long.id], unit_count: 2001 }).expect(422);
    expect(low.body.errors.unit_count[0]).toContain('at least 2002');
    await quote({ file_ids: [photo.id, long.id], unit_count: 2002 }).expect(201);
  });
});

describe('a total past the most one order or booking may cost', () => {
  it('is a 422 naming the unit count, not a 500, on both doors', async () => {
    expect((await t.gql(UpdateRateDocument, { priceCents: 2200, serviceType: 'CERTIFIED' }, staff)).errors).toBe(
      undefined,
    );
    const photo = await uploadFile(t, firm.key, png(), 'birth-certificate.png');
    const huge = await quote({ file_ids: [photo.id], unit_count: 976_131 }).expect(422);
    expect(huge.body.errors).toEqual({
      unit_count: [
        'The total would be $21,474,882.00, more than the $1,000,000.00 one order may cost: split the work into smaller orders.',
      ],
    });
    const viaGraphQL = await quoteViaGraphQL(photo.id, 976_131);
    expect(viaGraphQL.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { unitCount: [expect.any(String)] },
    });
    // Just under the line is priced.
    await quote({ file_ids: [photo.id], unit_count: 45_454 }).expect(201);
  });

  it('refuses a booking whose hours at the rate pass it, on its duration', async () => {
    const rate = await t.gql(UpdateRateDocument, { priceCents: 10_000_000, interpretationMode: 'VIDEO_REMOTE' }, staff);
    expect(rate.errors).toBeUndefined();
    const refused = await t.rest
      .post(
        '/api/v1/interpretation-bookings',
        {
          source_language: 'es',
          target_language: 'en',
          mode: 'video_remote',
          scheduled_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
          duration_hours: 12,
        },
        firm.key,
      )
      .expect(422);
    expect(refused.body.errors).toEqual({ duration_hours: [expect.stringContaining('$1,000,000.00')] });
    expect((await requestBooking(t, firm.key, { duration_hours: 10 })).total_cents).toBe(100_000_000);
  });
});
