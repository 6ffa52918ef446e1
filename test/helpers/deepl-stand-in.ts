import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import busboy from 'busboy';
import { DOCX, PDF } from '../../src/documents/formats';
import { DOCUMENT_LIMITS } from '../../src/documents/limits';
import { writeSandboxTranslation } from '../../src/documents/sandbox-translation';
import { DEEPL_SOURCE_LANGUAGES, DEEPL_TARGET_LANGUAGES } from '../../src/providers/translation/deepl-language-lists';

/**
 * A local server speaking DeepL's endpoints as deepl-node calls them: GET /v2/languages (the source list, or with
 * `type=target` the target list, in DeepL's answer shape), POST /v2/document (multipart upload), POST
 * /v2/document/{id} (status), POST /v2/document/{id}/result (the translated file, same format).
 * Modes make it refuse the key, run out of quota, fail, refuse a language, fail only the status checks, take
 * `slowSeconds` to translate a document, or finish only the first `finishing` documents it was sent: the others stay
 * translating until it is raised, a translation held mid-way for as long as a test needs.
 */
export async function startDeepLStandIn(authKey = 'stand-in-key:fx') {
  const documents = new Map<
    string,
    { key: string; target: string; source?: string; output: Buffer; readyAt: number; sent: number }
  >();
  const mode = {
    quotaExceeded: false,
    down: false,
    refuseLanguage: false,
    statusDown: false,
    slowSeconds: 0,
    finishing: Infinity,
  };
  const calls: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ltk-deepl-'));

  const send = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

  function readForm(
    req: IncomingMessage,
  ): Promise<{ fields: Record<string, string>; file?: { name: string; data: Buffer } }> {
    return new Promise((resolve, reject) => {
      const fields: Record<string, string> = {};
      let file: { name: string; data: Buffer } | undefined;
      if (!String(req.headers['content-type']).startsWith('multipart/')) {
        const chunks: Buffer[] = [];
        req
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () =>
            resolve({ fields: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())) }),
          );
        return;
      }
      const parser = busboy({ headers: req.headers });
      parser.on('field', (name, value) => (fields[name] = value));
      parser.on('file', (_name, stream, info) => {
        const chunks: Buffer[] = [];
        stream
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () => (file = { name: info.filename ?? 'document', data: Buffer.concat(chunks) }));
      });
      parser.on('close', () => resolve({ fields, file })).on('error', reject);
      req.pipe(parser);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '').split('?')[0];
    calls.push(`${req.method} ${path}`);
    if (req.headers.authorization !== `DeepL-Auth-Key ${authKey}`)
      return send(res, 403, { message: 'Wrong endpoint or authentication key' });
    if (mode.down) return send(res, 503, { message: 'Service unavailable' });
    if (req.method === 'GET' && path === '/v2/languages') {
      const type = new URL(req.url ?? '', 'http://stand-in').searchParams.get('type');
      return send(res, 200, type === 'target' ? DEEPL_TARGET_LANGUAGES : DEEPL_SOURCE_LANGUAGES);
    }
    const { fields, file } = await readForm(req);

    if (req.method === 'POST' && path === '/v2/document') {
      if (mode.quotaExceeded) return send(res, 456, { message: 'Quota for this billing period has been exceeded' });
      if (mode.refuseLanguage) return send(res, 400, { message: "Value for 'target_lang' not supported." });
      if (!file) return send(res, 400, { message: 'Parameter file not specified' });
      // Like DeepL, the format comes from the file name alone.
      const ext = file.name.includes('.') ? file.name.split('.').pop() : undefined;
      if (ext !== 'pdf' && ext !== 'docx') return send(res, 400, { message: `Unsupported file type: ${file.name}` });
      const input = join(dir, `${randomBytes(6).toString('hex')}.${ext}`);
      const output = `${input}.out`;
      writeFileSync(input, file.data);
      await writeSandboxTranslation(
        {
          path: input,
          mimeType: ext === 'pdf' ? PDF : DOCX,
          sourceLanguage: fields.source_lang ?? 'auto',
          targetLanguage: fields.target_lang,
          outputPath: output,
        },
        DOCUMENT_LIMITS.zip,
      );
      const id = randomBytes(16).toString('hex').toUpperCase();
      const key = randomBytes(32).toString('hex').toUpperCase();
      documents.set(id, {
        key,
        target: fields.target_lang,
        source: fields.source_lang,
        output: readFileSync(output),
        readyAt: Date.now() + mode.slowSeconds * 1000,
        sent: documents.size,
      });
      return send(res, 200, { document_id: id, document_key: key });
    }
    const status = path.match(/^\/v2\/document\/([^/]+)$/);
    const result = path.match(/^\/v2\/document\/([^/]+)\/result$/);
    const document = documents.get((status ?? result)?.[1] ?? '');
    if (!document || document.key !== fields.document_key) return send(res, 404, { message: 'Document not found' });
    if (status && mode.statusDown) return send(res, 503, { message: 'Service unavailable' });
    if (status && (Date.now() < document.readyAt || document.sent >= mode.finishing))
      return send(res, 200, { document_id: status[1], status: 'translating', seconds_remaining: 5 });
    if (status) return send(res, 200, { document_id: status[1], status: 'done', billed_characters: 1234 });
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(document.output);
  }

  const server = createServer(
    (req, res) => void handle(req, res).catch((error) => send(res, 500, { message: String(error) })),
  );
  // deepl-node sends every Translator's requests through one keep-alive agent, which reuses an idle connection without
  // minding the server's idle timeout: one closed by the server just as it is reused fails "socket hang up", which a
  // test's engine without retries would report. Idle connections stay open until the stand-in closes.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    serverUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authKey,
    documents,
    mode,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
