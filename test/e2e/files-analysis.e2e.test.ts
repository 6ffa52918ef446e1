import { LockMode } from '@mikro-orm/core';
import { StoredFile } from '../../src/domain/files/file.entity';
import {
  blankPagesPdf,
  docx,
  docxWithSavedPages,
  encryptedPdf,
  jpeg,
  manyEntriesDocx,
  pdf,
  png,
  SCANNED,
  textlessPdf,
  words,
  zipBombDocx,
} from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { startTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let account: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  account = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(() => t.close());

const FOX = 'The quick brown fox jumps over the lazy dog.'; // 9 words
const SPANISH = 'El niño comió pingüino en Málaga, ¿verdad? Sí, señor: ¡qué día!'; // 11 words
const CHINESE = '我们是学生。今天天气很好。'; // 我们/是/学生/今天/天气/很好: 6 words
const JAPANESE = '私は学生です。東京に住んでいます。'; // 私/は/学生/です/東京/に/住/んで/い/ます: 10 words

// Every row has all seven entries: jest takes a parameter with no value as a `done` callback.
type Case = [
  label: string,
  make: () => Promise<Buffer> | Buffer,
  filename: string,
  words: number | null,
  pages: number | null,
  why: string | null,
  paper: Paper,
];

/** `document_pages` and `scanned_pages` (D29). */
type Paper = [documentPages: number | null, scannedPages: number | null];
const DOCX_PAPER: Paper = [null, 0]; // the docx package saves no page count of its own

/** Word and page counts (D5) and the pages on paper (D29) checked exactly, through the API, after the background analysis. */
const cases: Case[] = [
  [
    'an English PDF over two pages',
    () => pdf([Array(20).fill(FOX).join(' '), Array(10).fill(FOX).join(' ')]),
    'en.pdf',
    270,
    2,
    null,
    [2, 0],
  ],
  ['a Spanish PDF with accents', () => pdf([SPANISH]), 'es.pdf', 11, 1, null, [1, 0]],
  ['a Chinese DOCX', () => docx({ paragraphs: [CHINESE] }), 'zh.docx', 6, 1, null, DOCX_PAPER],
  ['a Japanese DOCX', () => docx({ paragraphs: [JAPANESE] }), 'ja.docx', 10, 1, null, DOCX_PAPER],
  [
    'a 250-word DOCX (one page)',
    () => docx({ paragraphs: [words(100), words(150)] }),
    '250.docx',
    250,
    1,
    null,
    DOCX_PAPER,
  ],
  [
    'a 251-word DOCX (two pages)',
    () => docx({ paragraphs: [words(100), words(151)] }),
    '251.docx',
    251,
    2,
    null,
    DOCX_PAPER,
  ],
  ['a 1-word DOCX', () => docx({ paragraphs: ['Affidavit'] }), 'one.docx', 1, 1, null, DOCX_PAPER],
  [
    'a DOCX with a table, header, footer, footnote and words split across runs',
    () =>
      docx({
        paragraphs: ['Body text here'], // 3
        splitRuns: [
          ['Certi', 'fied ', 'trans', 'lation'],
          ['two', ' ', 'words'],
        ], // 2 + 2
        table: [
          ['Name', 'Date of birth'],
          ['Ana María', '1990'],
        ], // 1 + 3 + 2 + 1
        header: 'Case number 42', // 3
        footer: 'Page footer', // 2
        footnote: 'A footnote of six words total', // 6, plus "See" in the body: 1
      }),
    'parts.docx',
    26,
    1,
    null,
    DOCX_PAPER,
  ],
  // D29: each page without a text layer is one billing page beside the text's pages.
  [
    'a PDF of one text page and nine scanned pages',
    () => pdf([FOX, ...Array(9).fill(SCANNED)]),
    'mixed.pdf',
    9,
    10,
    null,
    [10, 9],
  ],
  [
    'a PDF of scans between 260 words of text',
    () => pdf([SCANNED, words(130), SCANNED, SCANNED, words(130)]),
    'mixed-260.pdf',
    260,
    5,
    null,
    [5, 3],
  ],
  ['a PDF of scans only', () => pdf([SCANNED, SCANNED, SCANNED, SCANNED]), 'scans.pdf', null, null, 'no_text', [4, 4]],
  ['a DOCX whose properties give its pages', () => docxWithSavedPages(words(40), 3), 'saved.docx', 40, 1, null, [3, 0]],
  ['a PNG image', png, 'scan.png', null, null, 'image', [1, 1]],
  ['a JPEG image', jpeg, 'scan.jpg', null, null, 'image', [1, 1]],
  ['a PDF without a text layer', () => textlessPdf(3), 'scan.pdf', null, null, 'no_text', [3, 3]],
  ['an encrypted PDF', encryptedPdf, 'locked.pdf', null, null, 'encrypted', [null, null]],
  [
    'a damaged PDF',
    () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 7)]),
    'broken.pdf',
    null,
    null,
    'corrupt',
    [null, null],
  ],
  ['a PDF of 2001 pages', () => blankPagesPdf(2001), 'huge.pdf', null, null, 'too_many_pages', [2001, null]],
  ['a DOCX zip bomb', () => zipBombDocx(64), 'bomb.docx', null, null, 'too_large_unpacked', [null, null]],
  [
    'a DOCX with 10 001 entries',
    () => manyEntriesDocx(10_001),
    'entries.docx',
    null,
    null,
    'too_large_unpacked',
    [null, null],
  ],
];

describe('analysis counts (D5)', () => {
  it.each(cases)(
    '%s',
    async (_label, make, filename, expectedWords, expectedPages, why, [documentPages, scannedPages]) => {
      const uploaded = await uploadFile(t, account.key, await make(), filename);
      expect(uploaded).toMatchObject({
        page_count: null,
        word_count: null,
        document_pages: null,
        scanned_pages: null,
        analysis_status: 'pending',
      });
      const analysed = await waitForAnalysis(t, account.key, uploaded.id);
      expect(analysed).toMatchObject({
        word_count: expectedWords,
        page_count: expectedPages,
        document_pages: documentPages,
        scanned_pages: scannedPages,
        analysis_status: expectedWords === null ? 'uncountable' : 'counted',
      });
      // Why it is uncountable is kept for staff, not shown to clients: check it in the database.
      const [row] = await t.orm.em
        .fork()
        .getConnection()
        .execute(`SELECT analysis_note FROM files WHERE id = ?`, [uploaded.id]);
      expect(row.analysis_note).toBe(why);
    },
  );
});

describe('ensureAnalysed (for quotes)', () => {
  it('analyses synchronously what the background has not reached yet', async () => {
    const quiet = await startTestApp({ workers: false });
    try {
      const own = await createApprovedAccount(quiet, await createStaffToken(quiet));
      const uploaded = await uploadFile(quiet, own.key, await docx({ paragraphs: [words(300)] }), 'sync.docx');
      const em = quiet.orm.em.fork();
      const file = await em.findOneOrFail(StoredFile, { id: uploaded.id });
      expect(file.analysisStatus).toBe('pending');
      await quiet.services.files.ensureAnalysed(em, [file]);
      expect(file).toMatchObject({ analysisStatus: 'counted', wordCount: 300, pageCount: 2 });
      const res = await quiet.rest.get(`/api/v1/files/${uploaded.id}`, own.key).expect(200);
      expect(res.body.data).toMatchObject({ word_count: 300, page_count: 2, analysis_status: 'counted' });
    } finally {
      await quiet.close();
    }
  });

  it('finishes when the caller holds the file row while the analysis job of the same file runs', async () => {
    // Certification asks for a count inside the transaction that rewrote the file; the job's own write of that
    // row must not be what the caller waits for, or neither ever ends.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const atGate = new Promise<void>((resolve) => (arrived = resolve));
    const quiet = await startTestApp({
      workers: false,
      adjust: (services) => {
        const analyse = services.documents.analyse.bind(services.documents);
        services.documents.analyse = async (...args) => {
          arrived();
          await gate;
          return analyse(...args);
        };
      },
    });
    try {
      const own = await createApprovedAccount(quiet, await createStaffToken(quiet));
      const { id } = await uploadFile(quiet, own.key, await docx({ paragraphs: [words(300)] }), 'locked.docx');
      const job = quiet.services.files.analysePending(quiet.orm.em.fork(), id);
      await atGate; // the job has read the file and waits at the gate
      const holder = quiet.orm.em.fork().transactional(async (em) => {
        const file = await em.findOneOrFail(StoredFile, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const counted = quiet.services.files.ensureAnalysed(em, [file]);
        release();
        await counted;
        return file;
      });
      const settled = await Promise.race([
        Promise.all([holder, job]),
        // Unref'd: left pending once the race is settled, it would hold the jest worker open for 15 s.
        new Promise((resolve) => setTimeout(resolve, 15_000, 'stuck').unref()),
      ]);
      expect(settled).not.toBe('stuck');
      const res = await quiet.rest.get(`/api/v1/files/${id}`, own.key).expect(200);
      expect(res.body.data).toMatchObject({ word_count: 300, page_count: 2, analysis_status: 'counted' });
    } finally {
      release();
      await quiet.close();
    }
  });
});
