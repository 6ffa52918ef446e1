import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docx, pdf, words } from '../helpers/documents';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { assertBuilt, cleanEnv, MAIN, startProcess } from '../helpers/service-process';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { createTestDatabase } from '../helpers/test-database';

/** D25: every temporary file of the service is in `<DATA_DIR>/tmp`, and none outlives what made it. */

let t: TestApp;
let account: TestAccount;
let server: Server;
beforeAll(async () => {
  assertBuilt();
  t = await startTestApp();
  account = await createApprovedAccount(t, await createStaffToken(t));
  server = t.app.express.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await t.close();
});

const tempFiles = (dataDir: string) => readdirSync(join(dataDir, 'tmp')).filter((name) => name.startsWith('ltk-'));

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); ) {
    if (Date.now() > deadline) throw new Error(`still false after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const BOUNDARY = 'ltkboundary';

/** Starts a multipart upload to `port` and sends its first megabyte, then stops sending, like a client that went away. */
function partialUpload(port: number, path: string, key: string, fieldsBefore: Record<string, string> = {}, fileField = 'file'): ClientRequest {
  const req = httpRequest({
    port,
    path,
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(20 * 1024 * 1024),
      'apollo-require-preflight': 'true',
    },
  });
  req.on('error', () => undefined); // destroyed on purpose
  for (const [name, value] of Object.entries(fieldsBefore)) {
    req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`);
  req.write(Buffer.alloc(1024 * 1024, 0x20));
  return req;
}

describe('uploads', () => {
  it.each([
    ['REST', '/api/v1/files', {}, 'file'],
    ['GraphQL', '/graphql', { operations: JSON.stringify({ query: 'mutation ($file: Upload!) { uploadFile(file: $file) { id } }', variables: { file: null } }), map: '{"0":["variables.file"]}' }, '0'],
  ])('an aborted %s upload leaves no temporary file', async (_door, path, fields, fileField) => {
    const req = partialUpload((server.address() as { port: number }).port, path, account.key, fields, fileField);
    await eventually(() => tempFiles(t.config.dataDir).length === 1); // it is being received
    const [receiving] = tempFiles(t.config.dataDir);
    req.destroy();
    await eventually(() => !existsSync(join(t.config.dataDir, 'tmp', receiving)));
  });

  it.each([
    ['too large', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024, 0x20)]), {}],
    ['empty', Buffer.alloc(0), {}],
    ['of no accepted format', Buffer.from('just text'), {}],
    ['of a type clients may not upload', Buffer.from('%PDF-1.7\n'), { type: 'translation' }],
  ])('a refused upload (%s) leaves no temporary file', async (_label, file, fields) => {
    const res = await t.rest.upload('/api/v1/files', { file, filename: 'x.pdf', fields }, account.key);
    expect(res.status).toBe(422);
    expect(tempFiles(t.config.dataDir)).toEqual([]);
  });

  it('an analysed upload leaves no temporary file, and none is made outside DATA_DIR/tmp', async () => {
    const uploaded = await uploadFile(t, account.key, await pdf([words(300)]), 'ok.pdf');
    expect(await waitForAnalysis(t, account.key, uploaded.id)).toMatchObject({ analysis_status: 'counted' });
    expect(tempFiles(t.config.dataDir)).toEqual([]);
    expect(t.services.files.tempDir).toBe(join(t.config.dataDir, 'tmp'));
  });
});

describe('a service killed with SIGKILL', () => {
  it('leaves temporary files that its next start removes once they are past the deadline', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'ltk-temp-'));
    const env = cleanEnv({ DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
    let service = startProcess(MAIN, [], env);
    try {
      const port = JSON.parse(await service.waitFor(/listening on port/, 60_000)).port as number;
      const other = await startTestApp({ databaseOf: { database } as never, workers: false });
      const key = (await createApprovedAccount(other, await createStaffToken(other))).key;
      await other.close();

      // An upload in flight and an analysis copy of a killed job are on disk when the process dies.
      partialUpload(port, '/api/v1/files', key);
      await eventually(() => tempFiles(dataDir).length === 1);
      writeFileSync(join(dataDir, 'tmp', 'ltk-analysis-of-a-killed-job'), await docx({ paragraphs: [words(10)] }));
      service.child.kill('SIGKILL');
      await service.exited;
      const left = tempFiles(dataDir);
      expect(left).toHaveLength(2);

      // One is past the deadline (its process died an hour ago); the other could belong to a live process.
      const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
      utimesSync(join(dataDir, 'tmp', left[0]), hourAgo, hourAgo);
      service = startProcess(MAIN, [], env);
      await service.waitFor(/listening on port/, 60_000);
      expect(existsSync(join(dataDir, 'tmp', left[0]))).toBe(false);
      expect(tempFiles(dataDir)).toEqual([left[1]]);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGTERM');
      await service.exited;
      await database.drop();
    }
  }, 120_000);
});
