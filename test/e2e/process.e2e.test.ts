import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { docx, words } from '../helpers/documents';
import { pollUntil } from '../helpers/poll';
import { createTestDatabase } from '../helpers/test-database';
import { assertBuilt, cleanEnv, CLI, MAIN, run, startProcess, type RunningProcess } from '../helpers/service-process';

beforeAll(assertBuilt);

/** waitForAnalysis for a service in a child process: polls GET /files/{id} over plain HTTP until the analysis has finished. */
const analysed = (http: ReturnType<typeof request>, key: string, id: string) =>
  pollUntil(
    async () => (await http.get(`/api/v1/files/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.data,
    (file) => file.analysis_status !== 'pending',
    { timeoutMs: 20_000, intervalMs: 200, failure: () => `file ${id} still pending` },
  );

describe('start-up refuses a bad configuration (D15)', () => {
  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a number (got "abc").'],
    [{ APP_ENV: 'production' }, 'Invalid configuration: DATABASE_URL is required when APP_ENV is production.'],
  ])('%j: exits 1 with one line naming the variable', async (env, line) => {
    const result = await run(MAIN, [], cleanEnv({ DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-bad-')), ...env }));
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([line]);
    expect(result.stdout).toEqual([]);
  });
});

describe('a fresh machine: npm start with no DATABASE_URL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ltk-fresh-'));
  const env = cleanEnv({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
  let service: RunningProcess;
  let http: ReturnType<typeof request>;
  let port: number;

  beforeAll(async () => {
    service = startProcess(MAIN, [], env);
    const listening = await service.waitFor(/listening on port/, 90_000);
    port = JSON.parse(listening).port;
    expect(JSON.parse(listening)).toMatchObject({ env: 'sandbox', embedded_database: true });
    http = request(`http://127.0.0.1:${port}`);
  }, 120_000);
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it('answers the catalog from an embedded PostgreSQL under DATA_DIR', async () => {
    const res = await http.get('/api/v1/languages').expect(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(200);
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    await http.get('/readyz').expect(200);
  });

  it('walks the README path: first admin from the CLI, an account, its key, an authenticated request', async () => {
    // The CLI joins the embedded server the running service started, instead of failing on its lock.
    const created = await run(
      CLI,
      ['staff:create', '--email', 'admin@example.test', '--name', 'Ada Admin', '--role', 'admin'],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toHaveLength(1);
    const token = created.stdout[0];
    expect(token).toMatch(/^ltk_staff_[A-Za-z0-9]{40}$/);

    const gql = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await http
        .post('/graphql')
        .set('Authorization', `Bearer ${token}`)
        .send({ query, variables })
        .expect(200);
      expect(res.body.errors).toBeUndefined();
      return res.body.data;
    };
    const { createAccount } = await gql(
      'mutation($n: String!, $e: String!) { createAccount(name: $n, email: $e) { id } }',
      {
        n: 'Smith & Partners LLP',
        e: 'it@smith.example',
      },
    );
    await gql('mutation($id: ID!) { approveAccount(id: $id) { status } }', { id: createAccount.id });
    const { sentEmails } = await gql('{ sentEmails(to: "it@smith.example") { items { text } } }');
    const key = sentEmails.items[0].text.match(/ltk_test_[A-Za-z0-9]{40}/)[0];

    const me = await http.get('/api/v1/me').set('Authorization', `Bearer ${key}`).expect(200);
    expect(me.body.data).toMatchObject({ id: createAccount.id, status: 'approved' });

    // An upload analysed by the background job in the compiled service (its worker thread, its queue).
    const upload = await http
      .post('/api/v1/files')
      .set('Authorization', `Bearer ${key}`)
      .attach('file', await docx({ paragraphs: [words(300)] }), 'affidavit.docx')
      .expect(201);
    const file = await analysed(http, key, upload.body.data.id);
    expect(file).toMatchObject({ analysis_status: 'counted', word_count: 300, page_count: 2 });
    expect(existsSync(join(dataDir, 'files', file.id.slice(0, 2), file.id))).toBe(true);
  });

  it('drains an in-flight request on SIGTERM, then stops the database and exits 0', async () => {
    const body = JSON.stringify({ query: '{ languages { code } }' });
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    const response = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
    // Node answers `Expect: 100-continue` as it hands the request to the app: the sign that the server holds it.
    const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
    const heldByServer = new Promise<void>((resolve, reject) => {
      socket.on('data', () => text.startsWith(CONTINUE) && resolve());
      socket.on('close', () => reject(new Error(`closed before 100 Continue: ${text}`)));
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    // Half a request is on the wire when the signal comes; the rest follows once draining has begun.
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    socket.write(body.slice(0, 10));
    await heldByServer;
    service.child.kill('SIGTERM');
    await service.waitFor(/draining requests/);
    socket.write(body.slice(10));

    const answer = await response;
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(answer).toContain('"languages":[{"code"');
    expect(await service.exited).toBe(0);
    await service.waitFor(/"msg":"stopped"/);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});

describe('npm run serve and npm run worker: HTTP and jobs in separate processes on one database (D11)', () => {
  it('analyses an upload taken by the HTTP process in the worker process', async () => {
    const database = await createTestDatabase();
    const env = cleanEnv({
      DATABASE_URL: database.url,
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-split-')),
      JOBS_POLLING_INTERVAL_SECONDS: '0.5',
    });
    const serve = startProcess(MAIN, ['--role', 'serve'], env);
    const worker = startProcess(MAIN, ['--role', 'worker'], env);
    try {
      const listening = JSON.parse(await serve.waitFor(/listening on port/, 60_000));
      expect(listening.role).toBe('serve');
      await worker.waitFor(/working on jobs/, 60_000);
      const http = request(`http://127.0.0.1:${listening.port}`);

      const created = await run(
        CLI,
        ['staff:create', '--email', 'ops@example.test', '--name', 'Ops', '--role', 'admin'],
        env,
      );
      const token = created.stdout[0];
      const gql = async (query: string) =>
        (await http.post('/graphql').set('Authorization', `Bearer ${token}`).send({ query }).expect(200)).body.data;
      const { createAccount } = await gql(
        'mutation { createAccount(name: "Split Co", email: "split@example.test") { id } }',
      );
      await gql(`mutation { approveAccount(id: "${createAccount.id}") { status } }`);
      const key = (
        await gql('{ sentEmails(to: "split@example.test") { items { text } } }')
      ).sentEmails.items[0].text.match(/ltk_test_[A-Za-z0-9]{40}/)[0];

      const upload = await http
        .post('/api/v1/files')
        .set('Authorization', `Bearer ${key}`)
        .attach('file', await docx({ paragraphs: [words(42)] }), 'split.docx')
        .expect(201);
      const file = await analysed(http, key, upload.body.data.id);
      expect(file).toMatchObject({ analysis_status: 'counted', word_count: 42 });
    } finally {
      for (const proc of [serve, worker]) if (proc.child.exitCode === null) proc.child.kill('SIGTERM');
      expect([await serve.exited, serve.stderr]).toEqual([0, []]);
      expect([await worker.exited, worker.stderr]).toEqual([0, []]);
      await database.drop();
    }
  }, 120_000);

  it('refuses an unknown role', async () => {
    const result = await run(
      MAIN,
      ['--role', 'janitor'],
      cleanEnv({ DATA_DIR: mkdtempSync(join(tmpdir(), 'ltk-role-')) }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual(['Invalid role: --role must be all, serve or worker (got "janitor").']);
  });
});
