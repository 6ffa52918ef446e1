import { LanguagesDocument, PricingDocument } from '../graphql/generated';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => (t = await startTestApp()));
afterAll(() => t.close());

describe('GET /languages', () => {
  it('lists at least 200 languages with CLDR names, sorted by name, without a key', async () => {
    const res = await t.rest.get('/api/v1/languages').expect(200);
    const languages: { code: string; name: string }[] = res.body.data;
    expect(languages.length).toBeGreaterThanOrEqual(200);
    expect(languages.find((l) => l.code === 'es-MX')).toEqual({
      code: 'es-MX',
      name: 'Mexican Spanish',
      services: ['certified', 'standard'],
    });
    expect(languages.find((l) => l.code === 'ase')).toEqual({
      code: 'ase',
      name: 'American Sign Language',
      services: ['certified'],
    });
    for (const code of ['es', 'en', 'zh-Hans', 'zh-Hant', 'pt-BR', 'sr-Latn', 'ar', 'ht', 'fr-CA']) {
      expect(languages.map((l) => l.code)).toContain(code);
    }
    const names = languages.map((l) => l.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(languages.map((l) => l.code.toLowerCase())).size).toBe(languages.length);
    const cldr = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });
    for (const language of languages) expect(language.name).toBe(cldr.of(language.code));
  });

  it('ignores a key altogether, even an invalid one', async () => {
    await t.rest.get('/api/v1/languages', 'ltk_test_nonsense').expect(200);
  });

  it('answers HEAD and refuses other methods with 405 and Allow', async () => {
    await t.rest.raw().head('/api/v1/languages').expect(200);
    const res = await t.rest.post('/api/v1/languages', {}).expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.message).toMatch(/POST method is not supported/);
  });
});

describe('GET /pricing', () => {
  it('publishes the D7 rate card to the cent', async () => {
    const res = await t.rest.get('/api/v1/pricing').expect(200);
    expect(res.body.data).toEqual({
      services: [
        { service_type: 'certified', unit: 'page', unit_price_cents: 990, currency: 'USD' },
        { service_type: 'standard', unit: 'word', unit_price_cents: 1, currency: 'USD' },
      ],
      addons: [
        { code: 'notarization', name: 'Notarization', pricing_type: 'flat', price_cents: 0, currency: 'USD' },
        { code: 'hard_copy', name: 'Mailed hard copy', pricing_type: 'per_copy', price_cents: 1495, currency: 'USD' },
        {
          code: 'rush_2h',
          name: 'Rush delivery (1-2 hours)',
          pricing_type: 'flat',
          price_cents: 3995,
          currency: 'USD',
        },
      ],
      interpretation: [
        { mode: 'on_site', unit: 'hour', unit_price_cents: 12500, minimum_hours: 2, currency: 'USD' },
        { mode: 'video_remote', unit: 'hour', unit_price_cents: 8500, minimum_hours: 2, currency: 'USD' },
        { mode: 'sight_translation', unit: 'hour', unit_price_cents: 9500, minimum_hours: 2, currency: 'USD' },
        { mode: 'asl', unit: 'hour', unit_price_cents: 11000, minimum_hours: 2, currency: 'USD' },
        { mode: 'ai_conference', unit: 'hour', unit_price_cents: 3500, minimum_hours: 2, currency: 'USD' },
      ],
      // D32; booking-terms.e2e.test.ts tests it in full.
      booking_policy: expect.objectContaining({ waivable_by_staff: true }),
    });
  });
});

describe('GraphQL catalog', () => {
  it('answers languages exactly as REST does, with UPPER_SNAKE services', async () => {
    const [rest, gql] = await Promise.all([t.rest.get('/api/v1/languages'), t.gql(LanguagesDocument)]);
    expect(gql.errors).toBeUndefined();
    const upper = (rest.body.data as { services: string[] }[]).map((language) => ({
      ...language,
      services: language.services.map((s) => s.toUpperCase()),
    }));
    expect(gql.data!.languages).toEqual(upper);
  });

  it('answers pricing from the same rate card, with UPPER_SNAKE enums', async () => {
    const { data, errors } = await t.gql(PricingDocument);
    expect(errors).toBeUndefined();
    expect(data!.pricing.services).toEqual([
      { serviceType: 'CERTIFIED', unit: 'PAGE', unitPriceCents: 990, currency: 'USD' },
      { serviceType: 'STANDARD', unit: 'WORD', unitPriceCents: 1, currency: 'USD' },
    ]);
    expect(data!.pricing.addons.map((a) => [a.code, a.pricingType, a.priceCents])).toEqual([
      ['notarization', 'FLAT', 0],
      ['hard_copy', 'PER_COPY', 1495],
      ['rush_2h', 'FLAT', 3995],
    ]);
    expect(data!.pricing.interpretation.map((r) => [r.mode, r.unit, r.unitPriceCents, r.minimumHours])).toEqual([
      ['ON_SITE', 'HOUR', 12500, 2],
      ['VIDEO_REMOTE', 'HOUR', 8500, 2],
      ['SIGHT_TRANSLATION', 'HOUR', 9500, 2],
      ['ASL', 'HOUR', 11000, 2],
      ['AI_CONFERENCE', 'HOUR', 3500, 2],
    ]);
  });
});
