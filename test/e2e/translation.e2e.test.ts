import { FileType } from '../../src/domain/files/file.entity';
import { Order } from '../../src/domain/orders/order.entity';
import { TranslationService, translatedName } from '../../src/domain/translation/translation.service';
import { DOCUMENT_LIMITS } from '../../src/documents/limits';
import { writeSandboxTranslation } from '../../src/documents/sandbox-translation';
import { SandboxTranslationEngine } from '../../src/providers/translation/sandbox-translation-engine';
import type { TranslationEngine, TranslationJob } from '../../src/providers/translation/translation-engine';
import { createStorage } from '../../src/providers/storage/create-storage';
import { createLogger } from '../../src/shared/logger';
import {
  ConvertQuoteDocument,
  CreateQuoteDocument,
  OrderDocument,
  SentEmailsDocument,
  UploadFileDocument,
} from '../graphql/generated';
import { docx, pdf } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { imageQuotedAsText, uploadFile } from '../helpers/files';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { pollUntil } from '../helpers/poll';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { entries, openZip, readEntry } from '../../src/documents/zip-reader';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let t: TestApp;
let staff: string;
let alice: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  staff = await createStaffToken(t);
  alice = await createApprovedAccount(t, staff);
});
afterAll(() => t.close());

const download = async (url: string) =>
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

async function docxXml(content: Buffer): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'ltk-t-')), 'x.docx');
  writeFileSync(path, content);
  const zip = await openZip(path);
  try {
    for await (const entry of entries(zip))
      if (entry.fileName === 'word/document.xml') return (await readEntry(zip, entry)).toString('utf8');
    throw new Error('no document.xml');
  } finally {
    zip.close();
  }
}

/** The sandbox output of the pipeline tests' two documents, opened as a client would open the downloads. */
const docxParagraphs = ['Declaración jurada de Ana María Núñez.', 'Juro que lo anterior es verdad.', '宣誓书'];
const pdfPages = ['Página uno: año fiscal.', '第二页：合同条款。', 'Страница три.'];

async function expectTranslatedDocuments(docxUrl: string, pdfUrl: string) {
  const xml = await docxXml(await download(docxUrl));
  for (const text of [...docxParagraphs, 'Nombre', 'Fecha']) expect(xml).toContain(`[EN] ${text}`);
  expect((xml.match(/<w:tbl>/g) ?? []).length).toBe(1);

  const { getDocumentProxy, extractText } = await import('unpdf');
  const translatedPdf = await getDocumentProxy(new Uint8Array(await download(pdfUrl)));
  expect(translatedPdf.numPages).toBe(pdfPages.length);
  const { text } = await extractText(translatedPdf, { mergePages: false });
  pdfPages.forEach((page, i) => {
    expect(text[i]).toContain('[EN] Sandbox translation (es -> en)');
    expect(text[i]).toContain(page);
  });
}

const sourceDocuments = async () => ({
  docx: await docx({ paragraphs: docxParagraphs, table: [['Nombre', 'Fecha']] }),
  pdf: await pdf(pdfPages),
});

describe('the pipeline over HTTP (D11)', () => {
  it('translates a paid standard order into downloadable DOCX and PDF files in their own formats, then completes it', async () => {
    const documents = await sourceDocuments();
    const docxId = (await uploadFile(t, alice.key, documents.docx, 'declaración.docx')).id;
    const pdfId = (await uploadFile(t, alice.key, documents.pdf, 'acta.pdf')).id;
    const id = await paidOrder(t, alice, [docxId, pdfId]);

    const order = await waitForStatus(t, alice, id, ['completed', 'on_hold']);
    expect(order).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(/Z$/) });
    const translations = order.files.filter((f: { type: string }) => f.type === 'translation');
    expect(translations.map((f: { name: string }) => f.name).sort()).toEqual(['acta.en.pdf', 'declaración.en.docx']);
    const url = (name: string) => translations.find((f: { name: string }) => f.name === name).download_url;
    await expectTranslatedDocuments(url('declaración.en.docx'), url('acta.en.pdf'));

    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items.map((m) => m.kind)).toContain('order_completed');
  });

  it('runs the same flow through the GraphQL door: upload, quote, convert, pay, poll, download', async () => {
    const documents = await sourceDocuments();
    const upload = async (content: Buffer, filename: string) =>
      (await t.gqlUpload(UploadFileDocument, {}, { content, filename }, { token: alice.key })).data!.uploadFile.id;
    const fileIds = [await upload(documents.docx, 'poder.docx'), await upload(documents.pdf, 'poder.pdf')];
    const quote = (
      await t.gql(
        CreateQuoteDocument,
        { input: { sourceLanguage: 'es', targetLanguage: 'en', serviceType: 'STANDARD', fileIds } },
        alice.key,
      )
    ).data!.createQuote;
    const converted = (await t.gql(ConvertQuoteDocument, { id: quote.id }, alice.key)).data!.convertQuote;
    await t.rest
      .raw()
      .post(`${converted.approvalUrl.replace(t.config.appUrl, '')}/pay`)
      .type('form')
      .send({})
      .expect(200);

    const deadline = Date.now() + 30_000;
    let order = converted.order;
    while (order.status !== 'COMPLETED' && order.status !== 'ON_HOLD' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      order = (await t.gql(OrderDocument, { id: order.id }, alice.key)).data!.order!;
    }
    expect(order.status).toBe('COMPLETED');
    const translations = order.files.filter((file) => file.type === 'TRANSLATION');
    expect(translations.map((file) => file.name).sort()).toEqual(['poder.en.docx', 'poder.en.pdf']);
    const url = (name: string) => translations.find((file) => file.name === name)!.downloadUrl!;
    await expectTranslatedDocuments(url('poder.en.docx'), url('poder.en.pdf'));
  });

  it('sends a certified order to review instead of completing it', async () => {
    const fileId = (
      await uploadFile(t, alice.key, await docx({ paragraphs: ['Certificado de nacimiento.'] }), 'birth.docx')
    ).id;
    const order = await waitForStatus(t, alice, await paidOrder(t, alice, [fileId], 'certified'), [
      'in_review',
      'on_hold',
    ]);
    expect(order.status).toBe('in_review');
    expect(order.completed_at).toBeNull();
  });

  it('puts an image-only order (quoted before D29) on hold with the reason and e-mails the account', async () => {
    const fileId = await imageQuotedAsText(t, alice.key, await docx({ paragraphs: ['Scan.'] }), 'scan.docx');
    const order = await waitForStatus(t, alice, await paidOrder(t, alice, [fileId], 'standard'), [
      'on_hold',
      'completed',
    ]);
    expect(order).toMatchObject({
      status: 'on_hold',
      hold_reason: 'Cannot translate automatically: The document is an image: there is no text to translate.',
    });
    const mail = await t.gql(SentEmailsDocument, { to: alice.email }, staff);
    expect(mail.data!.sentEmails.items[0]).toMatchObject({ kind: 'on_hold' });
  });
});

describe('the sandbox engine on PDFs (D11)', () => {
  async function translatePdf(source: Buffer): Promise<Uint8Array> {
    const dir = mkdtempSync(join(tmpdir(), 'ltk-t-'));
    writeFileSync(join(dir, 'in.pdf'), source);
    await writeSandboxTranslation(
      {
        path: join(dir, 'in.pdf'),
        mimeType: 'application/pdf',
        sourceLanguage: 'ja',
        targetLanguage: 'en',
        outputPath: join(dir, 'out.pdf'),
      },
      DOCUMENT_LIMITS.zip,
    );
    return new Uint8Array(readFileSync(join(dir, 'out.pdf')));
  }

  const textOf = async (bytes: Uint8Array) => {
    const { extractText, getDocumentProxy } = await import('unpdf');
    return (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text;
  };

  it('keeps the size of every page', async () => {
    const { getDocumentProxy } = await import('unpdf');
    const output = await getDocumentProxy(await translatePdf(await pdf(['一', '二'], { pageSize: [595.28, 841.89] })));
    expect(output.numPages).toBe(2);
    for (const number of [1, 2]) expect((await output.getPage(number)).view).toEqual([0, 0, 595.28, 841.89]);
  });

  it('fits a page full of Latin and CJK text onto its page, in smaller type, with none of it lost', async () => {
    const latin = Array.from({ length: 750 }, (_, i) => `w${i}`);
    const cjk = '第一条本合同自双方签字之日起生效。'.repeat(40);
    const source = await pdf([`${latin.join(' ')} ${cjk}`]);
    const squeeze = (text: string) => text.replace(/\s+/g, '');
    expect(squeeze(await textOf(new Uint8Array(source)))).toContain(`${latin.join('')}${cjk}`);

    const output = await textOf(await translatePdf(source));
    expect(squeeze(output)).toContain(`${latin.join('')}${cjk}`);
    expect(output).not.toContain('more lines not shown');
  });

  it('says how much it left out when a page holds more than fits even in the smallest type', async () => {
    const source = await pdf([Array.from({ length: 6000 }, (_, i) => `w${i}`).join(' ')], { fontSize: 3 });
    const output = await textOf(await translatePdf(source));
    expect(output).toContain('w0 w1 w2');
    expect(output).toMatch(/\[\.\.\. \d+ more lines not shown\]/);
  });
});

describe('an app without workers: the tests take its translate-order jobs themselves', () => {
  // One app for both: a paid order's job waits in its queue (or reaches the queue test's handler, which only
  // records it) until a test runs the translation itself.
  let quiet: TestApp;
  let own: TestAccount;
  beforeAll(async () => {
    quiet = await startTestApp({ workers: false });
    own = await createApprovedAccount(quiet, await createStaffToken(quiet));
  });
  afterAll(() => quiet.close());

  describe('the translate-order queue', () => {
    it('takes a rush order before standard ones paid earlier', async () => {
      const fileId = (await uploadFile(quiet, own.key, await docx({ paragraphs: ['Contrato.'] }), 'contrato.docx')).id;
      const paid = (addons: object[]) => paidOrder(quiet, own, [fileId], 'standard', { addons });
      const standard = [await paid([]), await paid([])];
      const rush = await paid([{ code: 'rush_2h' }]);

      // The app is shared: jobs that other tests left queued in it are taken too; only the order of these three counts.
      const ours = [rush, ...standard];
      const taken: string[] = [];
      await quiet.queue.work<{ orderId: string }>('translate-order', async ({ orderId }) => void taken.push(orderId));
      const takenOfOurs = async () => taken.filter((id) => ours.includes(id));
      await pollUntil(takenOfOurs, (ids) => ids.length === ours.length, {
        timeoutMs: 20_000,
        failure: (ids) => `${ids.length} of the ${ours.length} orders taken`,
      });
      expect(await takenOfOurs()).toEqual([rush, ...standard]);
    });
  });

  describe('a run cut short and run again (D11)', () => {
    it('produces exactly one translation per source file', async () => {
      const ids = [];
      for (const name of ['a', 'b', 'c'])
        ids.push(
          (await uploadFile(quiet, own.key, await docx({ paragraphs: [`Documento ${name}`] }), `${name}.docx`)).id,
        );
      const orderId = await paidOrder(quiet, own, ids);

      // An engine that dies on the second document, like a worker killed half-way.
      let calls = 0;
      const sandbox = new SandboxTranslationEngine(quiet.services.documents);
      const dying: TranslationEngine = {
        name: 'dying',
        translate: (job: TranslationJob) =>
          ++calls === 2 ? Promise.reject(new Error('killed')) : sandbox.translate(job),
      };
      const deps = {
        storage: createStorage(quiet.config.storage),
        files: quiet.services.files,
        orders: quiet.services.orders,
        logger: createLogger('silent'),
      };
      await expect(
        new TranslationService({ ...deps, engine: dying }).translateOrder(quiet.orm.em.fork(), orderId, {
          retryCount: 0,
          retryLimit: 5,
        }),
      ).rejects.toThrow('killed');
      const partial = (await quiet.rest.get(`/api/v1/orders/${orderId}`, own.key)).body.data;
      expect(partial.status).toBe('processing');
      // The client sees no translation before completion (D18); the order holds the one that was finished.
      expect(partial.files.map((f: { type: string }) => f.type)).toEqual(['source', 'source', 'source']);
      const stored = (await quiet.services.orders.filesOfMany(quiet.orm.em.fork(), [orderId])).get(orderId)!;
      expect(stored.filter((f) => f.type === FileType.TRANSLATION)).toHaveLength(1);

      const healthy = new TranslationService({ ...deps, engine: sandbox });
      await healthy.translateOrder(quiet.orm.em.fork(), orderId, { retryCount: 1, retryLimit: 5 });
      await healthy.translateOrder(quiet.orm.em.fork(), orderId, { retryCount: 2, retryLimit: 5 });
      const done = (await quiet.rest.get(`/api/v1/orders/${orderId}`, own.key)).body.data;
      expect(done.status).toBe('completed');
      expect(
        done.files
          .filter((f: { type: string }) => f.type === 'translation')
          .map((f: { name: string }) => f.name)
          .sort(),
      ).toEqual(['a.en.docx', 'b.en.docx', 'c.en.docx']);

      // An engine that keeps failing: retried, then on hold on its last try.
      const second = await paidOrder(quiet, own, [ids[0]]);
      const broken = new TranslationService({
        ...deps,
        engine: { name: 'broken', translate: () => Promise.reject(new Error('engine down')) },
      });
      await expect(
        broken.translateOrder(quiet.orm.em.fork(), second, { retryCount: 4, retryLimit: 5 }),
      ).rejects.toThrow('engine down');
      await broken.translateOrder(quiet.orm.em.fork(), second, { retryCount: 5, retryLimit: 5 });
      const held = await quiet.orm.em.fork().findOneOrFail(Order, { id: second });
      expect(held).toMatchObject({
        status: 'on_hold',
        holdReason: 'The translation engine kept failing; staff will finish this order.',
      });
    });

    it('names outputs <base>.<target>.<ext>', () => {
      expect(translatedName('statement.docx', 'en')).toBe('statement.en.docx');
      expect(translatedName('archive.2024.pdf', 'pt-BR')).toBe('archive.2024.pt-BR.pdf');
      expect(translatedName('README', 'fr')).toBe('README.fr');
    });
  });
});
