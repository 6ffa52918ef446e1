import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createGzip } from 'node:zlib';
import { Client } from 'pg';
import { ProcessClaim } from '../../src/db/process-claim';
import { removeStaleTempFiles } from '../../src/domain/files/temp-files';
import { pdf, words } from '../helpers/documents';
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

/** Temporary files anywhere under `DATA_DIR/tmp` (each process has a folder there), as paths relative to it. */
const tempFiles = (dataDir: string) =>
  (readdirSync(join(dataDir, 'tmp'), { recursive: true }) as string[]).filter((path) =>
    basename(path).startsWith('ltk-'),
  );

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check();) {
    if (Date.now() > deadline) throw new Error(`still false after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const BOUNDARY = 'ltkboundary';

/**
 * Starts a multipart upload to `port` and sends its first megabyte, then stops sending, like a client that went away.
 * A gzip body is flushed as it goes, so that the service decodes, and receives, all that was sent.
 */
function partialUpload(
  port: number,
  path: string,
  key: string,
  fieldsBefore: Record<string, string> = {},
  fileField = 'file',
  coding = 'identity',
): ClientRequest {
  const req = httpRequest({
    port,
    path,
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(coding === 'gzip'
        ? { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' }
        : { 'content-length': String(20 * 1024 * 1024) }),
      'apollo-require-preflight': 'true',
    },
  });
  req.on('error', () => undefined); // destroyed on purpose
  const gzip = coding === 'gzip' ? createGzip() : undefined;
  gzip?.on('data', (chunk: Buffer) => req.write(chunk));
  const send = (chunk: string | Buffer) => (gzip ?? req).write(chunk);
  for (const [name, value] of Object.entries(fieldsBefore)) {
    send(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  send(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
  );
  send(Buffer.alloc(1024 * 1024, 0x20));
  gzip?.flush();
  return req;
}

describe('uploads', () => {
  const graphqlFields = {
    operations: JSON.stringify({
      query: 'mutation ($file: Upload!) { uploadFile(file: $file) { id } }',
      variables: { file: null },
    }),
    map: '{"0":["variables.file"]}',
  };
  it.each([
    ['REST', 'identity', '/api/v1/files', {}, 'file'],
    ['GraphQL', 'identity', '/graphql', graphqlFields, '0'],
    ['REST', 'gzip', '/api/v1/files', {}, 'file'],
    ['GraphQL', 'gzip', '/graphql', graphqlFields, '0'],
  ])('an aborted %s upload (%s body) leaves no temporary file', async (_door, coding, path, fields, fileField) => {
    const req = partialUpload(
      (server.address() as { port: number }).port,
      path,
      account.key,
      fields,
      fileField,
      coding,
    );
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
    expect(t.services.files.tempDir).toBe(join(t.config.dataDir, 'tmp', `p${t.claim.id}`));
  });
});

describe('a service killed with SIGKILL', () => {
  it("leaves temporary files and stored bytes that its next start removes, keeping a live process's and every file's", async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'ltk-temp-'));
    const env = cleanEnv({ DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
    let service = startProcess(MAIN, [], env);
    // Another process sharing the database and DATA_DIR, alive throughout: what it holds must survive the sweep.
    const live = await ProcessClaim.take(database.url);
    const sql = new Client({ connectionString: database.url });
    await sql.connect();
    try {
      const port = JSON.parse(await service.waitFor(/listening on port/, 60_000)).port as number;
      const other = await startTestApp({ databaseOf: { database }, workers: false });
      const key = (await createApprovedAccount(other, await createStaffToken(other))).key;
      await other.close();
      const form = new FormData();
      form.append('file', new Blob([await pdf([words(20)])]), 'kept.pdf');
      const uploaded = await fetch(`http://127.0.0.1:${port}/api/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      const kept = ((await uploaded.json()) as { data: { id: string } }).data;

      // An upload in flight when the process dies; a live process's work; a loose file of an older version.
      partialUpload(port, '/api/v1/files', key);
      await eventually(() => tempFiles(dataDir).length === 1);
      const [inFlight] = tempFiles(dataDir);
      mkdirSync(join(dataDir, 'tmp', `p${live.id}`));
      writeFileSync(join(dataDir, 'tmp', `p${live.id}`, 'ltk-live-work'), 'x');
      writeFileSync(join(dataDir, 'tmp', 'ltk-analysis-of-an-old-version'), 'x');
      // Stored bytes: under the intent of a process that died before its commit, under a live one's, and under none.
      const stored = (name: string, age = 0) => {
        const path = join(dataDir, 'files', name.slice(0, 2), name);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, name);
        const when = new Date(Date.now() - age);
        utimesSync(path, when, when);
      };
      const intent = (name: string, processId: number) =>
        sql.query('insert into storage_intents (storage_key, process_id, created_at) values ($1, $2, now())', [
          name,
          processId,
        ]);
      const [dead, liveKey, young, old] = ['d0000000-dead', 'a0000000-live', 'b0000000-young', 'c0000000-old'];
      stored(dead);
      await intent(dead, 0x7fff_fff0);
      stored(liveKey);
      await intent(liveKey, live.id);
      stored(young);
      stored(old, 2 * 60 * 60 * 1000);
      service.child.kill('SIGKILL');
      await service.exited;
      expect(tempFiles(dataDir)).toContain(inFlight);

      service = startProcess(MAIN, [], env);
      const swept = JSON.parse(
        await service.waitFor(/swept stored bytes no file claims|stored bytes not swept/, 60_000),
      );
      expect(swept.removed_keys.sort()).toEqual([old, dead]);
      expect(swept.cleared_intents).toBe(1);
      // The killed process's temporary folder went at once; the loose file waits for its hour, the live one stays.
      // (The new process may be at work in a folder of its own meanwhile.)
      expect(existsSync(join(dataDir, 'tmp', dirname(inFlight)))).toBe(false);
      expect(tempFiles(dataDir)).toEqual(
        expect.arrayContaining(['ltk-analysis-of-an-old-version', join(`p${live.id}`, 'ltk-live-work')]),
      );
      const storedKeys = readdirSync(join(dataDir, 'files'), { recursive: true })
        .map(String)
        .filter((path) => path.includes('-'));
      expect(storedKeys.map((path) => basename(path)).sort()).toEqual([liveKey, young, kept.id].sort());
      expect((await sql.query('select storage_key from storage_intents')).rows).toEqual([{ storage_key: liveKey }]);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGTERM');
      await service.exited;
      await sql.end();
      await live.release();
      await database.drop();
    }
  }, 120_000);

  it('removes loose temporary files of an older version once they are past the deadline', async () => {
    const root = join(t.config.dataDir, 'tmp');
    writeFileSync(join(root, 'ltk-old'), 'x');
    writeFileSync(join(root, 'ltk-recent'), 'x');
    const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
    utimesSync(join(root, 'ltk-old'), hourAgo, hourAgo);
    expect(await removeStaleTempFiles(root)).toEqual(['ltk-old']);
    expect(existsSync(join(root, 'ltk-recent'))).toBe(true);
  });
});
