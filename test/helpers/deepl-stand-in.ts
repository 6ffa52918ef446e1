import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import busboy from 'busboy';
import { DOCX, PDF } from '../../src/documents/formats';
import { SandboxTranslationEngine } from '../../src/providers/translation/sandbox-translation-engine';

/**
 * A local server speaking DeepL's document endpoints as deepl-node calls them: POST /v2/document (multipart
 * upload), POST /v2/document/{id} (status), POST /v2/document/{id}/result (the translated file, same format).
 * Modes make it refuse the key, run out of quota, fail, or refuse a language.
 */
export async function startDeepLStandIn(authKey = 'stand-in-key:fx') {
  const documents = new Map<string, { key: string; target: string; source?: string; output: Buffer }>();
  const mode = { quotaExceeded: false, down: false, refuseLanguage: false };
  const calls: string[] = [];
  const engine = new SandboxTranslationEngine();
  const dir = mkdtempSync(join(tmpdir(), 'ltk-deepl-'));

  const send = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

  function readForm(req: IncomingMessage): Promise<{ fields: Record<string, string>; file?: { name: string; data: Buffer } }> {
    return new Promise((resolve, reject) => {
      const fields: Record<string, string> = {};
      let file: { name: string; data: Buffer } | undefined;
      if (!String(req.headers['content-type']).startsWith('multipart/')) {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ fields: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())) }));
        return;
      }
      const parser = busboy({ headers: req.headers });
      parser.on('field', (name, value) => (fields[name] = value));
      parser.on('file', (_name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c)).on("end", () => (file = { name: info.filename ?? "document", data: Buffer.concat(chunks) }));
      });
      parser.on('close', () => resolve({ fields, file })).on('error', reject);
      req.pipe(parser);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '').split('?')[0];
    calls.push(`${req.method} ${path}`);
    if (req.headers.authorization !== `DeepL-Auth-Key ${authKey}`) return send(res, 403, { message: 'Wrong endpoint or authentication key' });
    if (mode.down) return send(res, 503, { message: 'Service unavailable' });
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
      await engine.translate({ path: input, mimeType: ext === 'pdf' ? PDF : DOCX, sourceLanguage: fields.source_lang ?? 'auto', targetLanguage: fields.target_lang, outputPath: output });
      const id = randomBytes(16).toString('hex').toUpperCase();
      const key = randomBytes(32).toString('hex').toUpperCase();
      documents.set(id, { key, target: fields.target_lang, source: fields.source_lang, output: readFileSync(output) });
      return send(res, 200, { document_id: id, document_key: key });
    }
    const status = path.match(/^\/v2\/document\/([^/]+)$/);
    const result = path.match(/^\/v2\/document\/([^/]+)\/result$/);
    const document = documents.get((status ?? result)?.[1] ?? '');
    if (!document || document.key !== fields.document_key) return send(res, 404, { message: 'Document not found' });
    if (status) return send(res, 200, { document_id: status[1], status: 'done', billed_characters: 1234 });
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(document.output);
  }

  const server = createServer((req, res) => void handle(req, res).catch((error) => send(res, 500, { message: String(error) })));
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
