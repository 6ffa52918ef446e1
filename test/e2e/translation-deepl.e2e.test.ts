import { Order } from '../../src/domain/orders/order.entity';
import { TranslationService } from '../../src/domain/translation/translation.service';
import { createLogger } from '../../src/shared/logger';
import { createStorage } from '../../src/providers/storage/create-storage';
import { DeepLTranslationEngine } from '../../src/providers/translation/deepl-translation-engine';
import { docx, pdf } from '../helpers/documents';
import { startDeepLStandIn } from '../helpers/deepl-stand-in';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile } from '../helpers/files';
import { paidOrder, waitForStatus } from '../helpers/orders';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** The DeepL engine through deepl-node, against a local server speaking DeepL's document API (D11). */
let deepl: Awaited<ReturnType<typeof startDeepLStandIn>>;
let t: TestApp;
let alice: TestAccount;
beforeAll(async () => {
  deepl = await startDeepLStandIn();
  t = await startTestApp({
    config: { translation: { engine: 'deepl', authKey: deepl.authKey, serverUrl: deepl.serverUrl, maxRetries: 0 } },
  });
  alice = await createApprovedAccount(t, await createStaffToken(t));
});
afterAll(async () => {
  await t.close();
  await deepl.close();
});
beforeEach(() => Object.assign(deepl.mode, { quotaExceeded: false, down: false, refuseLanguage: false }));

/** A paid standard order from Mexican Spanish, left to the engine until it settles (completed or on hold). */
const settled = async (fileIds: string[]) =>
  waitForStatus(t, alice, await paidOrder(t, alice, fileIds, 'standard', { source_language: 'es-MX' }), [
    'completed',
    'on_hold',
  ]);

describe('DeepL engine', () => {
  it('translates DOCX and PDF through upload, status and download, keeping the format and mapping language codes', async () => {
    const a = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Hola mundo.'] }), 'hola.docx')).id;
    const b = (await uploadFile(t, alice.key, await pdf(['Página única.']), 'una.pdf')).id;
    const order = await settled([a, b]);
    expect(order.status).toBe('completed');
    expect(
      order.files
        .filter((f: { type: string }) => f.type === 'translation')
        .map((f: { name: string }) => f.name)
        .sort(),
    ).toEqual(['hola.en.docx', 'una.en.pdf']);
    const sent = [...deepl.documents.values()];
    expect(sent.map((d) => [d.source, d.target])).toEqual([
      ['es', 'en-US'],
      ['es', 'en-US'],
    ]);
    expect(deepl.calls.filter((c) => c === 'POST /v2/document')).toHaveLength(2);
    expect(deepl.calls.filter((c) => c.endsWith('/result'))).toHaveLength(2);
  });

  it('puts the order on hold at once when DeepL refuses the language pair', async () => {
    deepl.mode.refuseLanguage = true;
    const a = (await uploadFile(t, alice.key, await docx({ paragraphs: ['Texto.'] }), 'x.docx')).id;
    const order = await settled([a]);
    expect(order.status).toBe('on_hold');
    expect(order.hold_reason).toMatch(
      /^Cannot translate automatically: DeepL cannot translate this document or language pair/,
    );
  });

  it('retries a DeepL error and holds the order after the last try', async () => {
    const quiet = await startTestApp({ databaseOf: t, workers: false });
    try {
      const a = (await uploadFile(quiet, alice.key, await docx({ paragraphs: ['Texto.'] }), 'y.docx')).id;
      deepl.mode.quotaExceeded = true;
      const quote = (
        await quiet.rest
          .post(
            '/api/v1/quotes',
            { source_language: 'es', target_language: 'en', service_type: 'standard', file_ids: [a] },
            alice.key,
          )
          .expect(201)
      ).body.data;
      const converted = (await quiet.rest.post(`/api/v1/quotes/${quote.id}/convert`, undefined, alice.key).expect(201))
        .body;
      // Pay without this app's workers picking the job up: confirm through the service, then run the job by hand.
      await quiet.services.payments.confirm(
        quiet.orm.em.fork(),
        (await quiet.rest.get(`/api/v1/orders/${converted.data.id}`, alice.key)).body.data.payment.provider_order_id,
      );
      const engine = new DeepLTranslationEngine(deepl.authKey, { serverUrl: deepl.serverUrl, maxRetries: 0 });
      const service = new TranslationService({
        engine,
        storage: createStorage(quiet.config.storage),
        files: quiet.services.files,
        orders: quiet.services.orders,
        logger: createLogger('silent'),
      });
      await expect(
        service.translateOrder(quiet.orm.em.fork(), converted.data.id, { retryCount: 0, retryLimit: 2 }),
      ).rejects.toThrow(/Quota/);
      expect((await quiet.orm.em.fork().findOneOrFail(Order, { id: converted.data.id })).status).toBe('processing');
      await service.translateOrder(quiet.orm.em.fork(), converted.data.id, { retryCount: 2, retryLimit: 2 });
      expect(await quiet.orm.em.fork().findOneOrFail(Order, { id: converted.data.id })).toMatchObject({
        status: 'on_hold',
        holdReason: 'The translation engine kept failing; staff will finish this order.',
      });
    } finally {
      await quiet.close();
    }
  });
});
