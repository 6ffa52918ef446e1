import { DeepLTranslationEngine } from '../../src/providers/translation/deepl-translation-engine';
import { CreateQuoteDocument, LanguagesDocument } from '../graphql/generated';
import { startDeepLStandIn } from '../helpers/deepl-stand-in';
import { docx, jpeg, pdf, png, SCANNED, textlessPdf, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { pollUntil } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** D29: scanned pages are billed, and standard (machine) translation is sold only where it can be delivered. */
let t: TestApp;
let alice: TestAccount;
const file: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  alice = await createApprovedAccount(t, await createStaffToken(t));
  const uploads: Record<string, [Buffer, string]> = {
    text: [await docx({ paragraphs: [words(300)] }), 'text.docx'],
    // The document: one text page and nine scanned pages.
    mixed: [await pdf([words(120), ...Array(9).fill(SCANNED)]), 'mixed.pdf'],
    scans: [await textlessPdf(3), 'scans.pdf'],
    png: [png(), 'photo.png'],
    jpeg: [jpeg(), 'photo.jpg'],
  };
  for (const [key, [content, name]] of Object.entries(uploads))
    file[key] = (await uploadFile(t, alice.key, content, name)).id;
  for (const id of Object.values(file)) await waitForAnalysis(t, alice.key, id);
});
afterAll(() => t.close());

const quote = (body: object) =>
  t.rest.post('/api/v1/quotes', { source_language: 'es', target_language: 'en', ...body }, alice.key);
const countQuotes = async () =>
  (await t.orm.em.fork().getConnection().execute(`SELECT count(*)::int AS n FROM quotes`))[0].n as number;
const TO_CERTIFIED = 'order certified translation, or upload a text document.';

describe('scanned pages are billing pages', () => {
  it('prices the 10-page PDF with nine scanned pages as 10 certified pages, whatever unit_count says, and names both counts', async () => {
    const res = await quote({ service_type: 'certified', file_ids: [file.mixed], unit_count: 1 }).expect(201);
    expect(res.body.data).toMatchObject({
      unit_type: 'page',
      unit_count: 10,
      subtotal_cents: 9900,
      document_pages: 10,
      scanned_pages: 9,
    });
  });

  it('adds the pages of every file, and leaves them null when a file does not say', async () => {
    const both = await quote({ service_type: 'certified', file_ids: [file.mixed, file.png], unit_count: 1 }).expect(
      201,
    );
    expect(both.body.data).toMatchObject({ unit_count: 11, document_pages: 11, scanned_pages: 10 });
    const unknown = await quote({ service_type: 'certified', file_ids: [file.text, file.mixed] }).expect(201);
    expect(unknown.body.data).toMatchObject({ unit_count: 12, document_pages: null, scanned_pages: 9 });
  });
});

describe('standard quotes that could not be delivered are refused at once (422), on both doors', () => {
  const refusals: [label: string, body: () => object, errors: Record<string, string[]>][] = [
    [
      'a source language the engine does not read',
      () => ({ source_language: 'ht', file_ids: [file.text] }),
      { source_language: [`Standard translation from Haitian Creole is not available: ${TO_CERTIFIED}`] },
    ],
    [
      'a target language the engine does not write',
      () => ({ target_language: 'sw', file_ids: [file.text] }),
      { target_language: [`Standard translation into Swahili is not available: ${TO_CERTIFIED}`] },
    ],
    [
      'a file with scanned pages',
      () => ({ file_ids: [file.text, file.mixed] }),
      {
        file_ids: [
          `The file_ids.1 file has 9 scanned pages that standard (machine) translation cannot read: ${TO_CERTIFIED}`,
        ],
      },
    ],
    [
      'images and a PDF with no text layer, with unit_count given',
      () => ({ file_ids: [file.png, file.jpeg, file.scans], unit_count: 300 }),
      {
        file_ids: [0, 1, 2].map(
          (index) =>
            `The file_ids.${index} file has no text that standard (machine) translation can read: ${TO_CERTIFIED}`,
        ),
      },
    ],
  ];

  it.each(refusals)('REST: %s', async (_label, body, errors) => {
    const before = await countQuotes();
    const res = await quote({ service_type: 'standard', ...body() }).expect(422);
    expect(res.body.errors).toEqual(errors);
    expect(res.body.message).toMatch(/order certified translation/);
    expect(await countQuotes()).toBe(before);
  });

  it.each(refusals)('GraphQL: %s', async (_label, body, errors) => {
    const rest = { source_language: 'es', target_language: 'en', ...body() } as {
      source_language: string;
      target_language: string;
      file_ids: string[];
      unit_count?: number;
    };
    const input = {
      sourceLanguage: rest.source_language,
      targetLanguage: rest.target_language,
      serviceType: 'STANDARD' as const,
      fileIds: rest.file_ids,
      unitCount: rest.unit_count,
    };
    const before = await countQuotes();
    const { errors: gqlErrors } = await t.gql(CreateQuoteDocument, { input }, alice.key);
    const camel = (field: string) => field.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());
    expect(gqlErrors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: Object.fromEntries(Object.entries(errors).map(([field, messages]) => [camel(field), messages])),
    });
    expect(await countQuotes()).toBe(before);
  });

  it('still sells the same work certified, and standard where the engine can deliver it', async () => {
    await quote({
      service_type: 'certified',
      source_language: 'ht',
      target_language: 'sw',
      file_ids: [file.mixed, file.png],
      unit_count: 1,
    }).expect(201);
    // Regional and script variants are sent as the engine's own: es-MX read as es, zh-HK written as zh-Hant.
    await quote({
      service_type: 'standard',
      source_language: 'es-MX',
      target_language: 'zh-HK',
      file_ids: [file.text],
    }).expect(201);
  });

  it('lists the services of each language on both doors', async () => {
    const rest: { code: string; services: string[] }[] = (await t.rest.get('/api/v1/languages').expect(200)).body.data;
    const services = (code: string) => rest.find((language) => language.code === code)!.services;
    expect([services('de'), services('zh-Hant'), services('ht'), services('sw')]).toEqual([
      ['certified', 'standard'],
      ['certified', 'standard'],
      ['certified'],
      ['certified'],
    ]);
    const gql = (await t.gql(LanguagesDocument, {})).data!.languages;
    expect(gql.find((language) => language.code === 'ht')!.services).toEqual(['CERTIFIED']);
    expect(gql.find((language) => language.code === 'de')!.services).toEqual(['CERTIFIED', 'STANDARD']);
  });
});

describe("DeepL's language lists", () => {
  let deepl: Awaited<ReturnType<typeof startDeepLStandIn>>;
  beforeAll(async () => (deepl = await startDeepLStandIn()));
  afterAll(() => deepl.close());

  it('are read through deepl-node from the endpoints DeepL answers them on', async () => {
    const support = await new DeepLTranslationEngine(deepl.authKey, {
      serverUrl: deepl.serverUrl,
      maxRetries: 0,
    }).languages();
    expect(deepl.calls.filter((call) => call === 'GET /v2/languages')).toHaveLength(2);
    expect([
      support.source('pt-BR'),
      support.target('pt-BR'),
      support.target('en'),
      support.target('zh-TW'),
      support.source('ht'),
    ]).toEqual(['pt', 'pt-BR', 'en-US', 'zh-HANT', undefined]);
  });

  it('unread at start (DeepL down): the service starts, standard quotes answer 503 and certified ones go on, until a retry reads them', async () => {
    deepl.mode.down = true;
    const app = await startTestApp({
      databaseOf: t,
      workers: false,
      config: {
        translation: {
          engine: 'deepl',
          authKey: deepl.authKey,
          serverUrl: deepl.serverUrl,
          maxRetries: 0,
          languagesRetrySeconds: 1,
        },
      },
    });
    try {
      const body = { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [file.text] };
      const refused = await app.rest.post('/api/v1/quotes', body, alice.key).expect(503);
      expect(refused.headers['retry-after']).toBe('1');
      await app.rest.post('/api/v1/quotes', { ...body, service_type: 'certified' }, alice.key).expect(201);
      const languages: { code: string; services: string[] }[] = (await app.rest.get('/api/v1/languages').expect(200))
        .body.data;
      expect(languages.find((language) => language.code === 'de')!.services).toEqual(['certified']);

      deepl.mode.down = false;
      await pollUntil(
        async () => (await app.rest.post('/api/v1/quotes', body, alice.key)).status,
        (status) => status === 201,
        { timeoutMs: 10_000, failure: () => 'standard quotes still refused after DeepL came back' },
      );
    } finally {
      deepl.mode.down = false;
      await app.close();
    }
  });
});
