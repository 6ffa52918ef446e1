import 'reflect-metadata';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM, type Logger as OrmLogger } from '@mikro-orm/postgresql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import request from 'supertest';
import { createLogger, type Logger } from '../../src/shared/logger';
import { createApp, type App } from '../../src/app';
import type { AppConfig } from '../../src/config/app-config';
import { ormConfig } from '../../src/db/orm-config';
import { ProcessClaim } from '../../src/db/process-claim';
import { JobQueue } from '../../src/jobs/job-queue';
import { startWorkers } from '../../src/workers';
import { createServices, type Services } from '../../src/services';
import { assertMatchesOpenApi } from './openapi-validator';
import { createTestDatabase, RUNTIME_MEMORY_ENV, type TestDatabase } from './test-database';

export const testConfig = (overrides: Partial<AppConfig> = {}): AppConfig => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ltk-test-data-'));
  return {
    env: 'sandbox',
    port: 0,
    appUrl: 'http://127.0.0.1:3000',
    dataDir,
    databasePoolSize: 10,
    statementTimeoutMs: 5_000,
    appKey: 'test-app-key-0123456789abcdef0123456789abcdef',
    appKeyPrevious: [],
    mail: { driver: 'outbox', from: 'Legal Translation <no-reply@example.test>' },
    company: {
      name: 'Example Legal Translations (Sandbox)',
      address: '123 Example Street, Sampleville, EX 00000, Nowhere',
      supportEmail: 'support@example.test',
    },
    orderPrefix: 'LT',
    payment: { provider: 'sandbox' },
    translation: { engine: 'sandbox' },
    // One sandbox identity for the whole run (under its temporary root): making one costs about half a second of CPU.
    signing: { p12Path: join(tmpdir(), 'sandbox-signing.p12'), passphrase: '', selfSigned: true },
    storage: { driver: 'local', dir: join(dataDir, 'files') },
    quoteTtlDays: 7,
    turnaroundHours: 48,
    baseLanguage: 'en',
    uploadMaxBytes: 20 * 1024 * 1024,
    documentSandbox: {
      workMemoryMb: 512,
      runtimeMemoryMb: Number(process.env[RUNTIME_MEMORY_ENV]) || undefined,
      processes: 2,
    },
    // Suites make hundreds of requests a minute with one key; the rate limit has its own tests.
    rateLimitPerMinute: 1_000_000,
    jobs: { pollingIntervalSeconds: 0.5, heartbeatSeconds: 30 },
    logLevel: 'silent',
    shutdownTimeoutMs: 1000,
    http: { headersTimeoutMs: 20_000, requestTimeoutMs: 300_000 },
    metrics: { allowFrom: ['127.0.0.0/8', '::1'] },
    cors: { origins: [], anyLocalhost: true },
    ...overrides,
  };
};

export interface GraphQLResult<R> {
  status: number;
  data?: R | null;
  errors?: { message: string; extensions?: { code?: string; errors?: Record<string, string[]> } }[];
}

export interface TestApp {
  app: App;
  orm: MikroORM;
  config: AppConfig;
  queue: JobQueue;
  services: Services;
  /** This app's mark of life (D25): what it writes is its own until it is closed. */
  claim: ProcessClaim;
  database: TestDatabase;
  /** Where the app listens, for a test that must write the HTTP itself. */
  url: string;
  /** REST through supertest; every response is checked against the OpenAPI document. */
  rest: {
    get(path: string, token?: string): request.Test;
    post(path: string, body?: unknown, token?: string): request.Test;
    put(path: string, body: unknown, token?: string): request.Test;
    delete(path: string, token?: string): request.Test;
    /** multipart/form-data: the file part (when given) and text fields. */
    upload(
      path: string,
      part: { file?: Buffer; filename?: string; fields?: Record<string, string> },
      token?: string,
    ): request.Test;
    raw(): ReturnType<typeof request>;
  };
  /** A GraphQL multipart upload (the spec's operations + map + file parts). */
  gqlUpload<R, V>(
    document: TypedDocumentNode<R, V>,
    variables: Omit<V, 'file' | 'certificate' | 'scan'>,
    file: { content: Buffer; filename: string },
    options?: { token?: string; preflight?: boolean; variable?: 'file' | 'certificate' | 'scan' },
  ): Promise<GraphQLResult<R>>;
  /** GraphQL with the typed documents generated from test/graphql/*.graphql. */
  gql<R, V>(document: TypedDocumentNode<R, V>, variables?: V, token?: string): Promise<GraphQLResult<R>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<AppConfig>;
  /** Reuse another test app's database (two deployments over one database). */
  databaseOf?: TestApp;
  /** Change services before the doors are built (for example to make one fail). */
  adjust?: (services: Services) => void;
  logger?: Logger;
  /** Sees every SQL statement the app's ORM runs, with the id of the request it ran for (see StatementLog). */
  onQuery?: (sql: string, requestId?: string) => void;
  /** Run the background jobs in this app (default true); false leaves analysis to ensureAnalysed. */
  workers?: boolean;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.databaseOf?.database ?? (await createTestDatabase());
  const onQuery = options.onQuery;
  const orm = await MikroORM.init(
    ormConfig(database.url, {
      pool: { min: 0, max: 5 },
      // As production bounds a statement (5 s), looser for a loaded test machine: a lock wait that never ends
      // (a deadlock between the app and its own job) fails its test with an error instead of hanging the suite.
      driverOptions: { connection: { statement_timeout: 30_000 } },
      ...(onQuery ? { loggerFactory: () => queryTap(onQuery) } : { logger: () => undefined }),
    }),
  );
  const config = testConfig(options.config);
  const logger = options.logger ?? createLogger('silent');
  const workers = options.workers ?? true;
  const queue = await JobQueue.start(database.url, logger, config.jobs, { schedules: workers });
  const claim = await ProcessClaim.take(database.url);
  const services = createServices(config, { queue, logger, claim });
  options.adjust?.(services);
  if (workers) await startWorkers(queue, orm, services);
  const app = await createApp({ orm, services, logger, jobMetrics: queue.metrics });
  // One listening server for the app's life: given the app, supertest starts and stops one per request.
  const server = createServer(app.listener).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const agent = () => request(server);
  const auth = (test: request.Test, token?: string) => (token ? test.set('Authorization', `Bearer ${token}`) : test);
  const checked = (test: request.Test) => test.expect(assertMatchesOpenApi);

  return {
    app,
    orm,
    config,
    queue,
    services,
    claim,
    database,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rest: {
      get: (path, token) => checked(auth(agent().get(path), token)),
      post: (path, body, token) =>
        checked(
          auth(
            body === undefined
              ? agent().post(path)
              : agent()
                  .post(path)
                  .send(body as object),
            token,
          ),
        ),
      put: (path, body, token) =>
        checked(
          auth(
            agent()
              .put(path)
              .send(body as object),
            token,
          ),
        ),
      delete: (path, token) => checked(auth(agent().delete(path), token)),
      upload: (path, part, token) => {
        const test = auth(agent().post(path), token);
        for (const [name, value] of Object.entries(part.fields ?? {})) test.field(name, value);
        if (part.file)
          test.attach('file', part.file, {
            filename: part.filename ?? 'document.bin',
            contentType: 'application/octet-stream',
          });
        else if (!part.fields) test.field('nothing', 'here');
        return checked(test);
      },
      raw: agent,
    },
    async gqlUpload(document, variables, file, options = {}) {
      const test = auth(agent().post('/graphql'), options.token);
      if (options.preflight ?? true) test.set('Apollo-Require-Preflight', 'true');
      const variable = options.variable ?? 'file';
      const res = await test
        .field('operations', JSON.stringify({ query: print(document), variables: { ...variables, [variable]: null } }))
        .field('map', JSON.stringify({ 0: [`variables.${variable}`] }))
        .attach('0', file.content, { filename: file.filename, contentType: 'application/octet-stream' });
      return graphQLResult(res);
    },
    async gql(document, variables, token) {
      const res = await auth(
        agent()
          .post('/graphql')
          .send({ query: print(document), variables }),
        token,
      );
      return graphQLResult(res);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
      await queue.stop();
      services.documents.close();
      services.standardOffer.stop();
      await claim.release();
      await orm.close(true);
      if (!options.databaseOf) await database.drop();
    },
  };
}

/** A GraphQL answer, its `data` of the shape the typed document asked for. */
function graphQLResult<R>(res: request.Response): GraphQLResult<R> {
  const { data, errors } = res.body as Omit<GraphQLResult<R>, 'status'>;
  return { status: res.status, data, errors };
}

/** A MikroORM logger that hands each statement, with its EntityManager's request id, to `onQuery`, and logs nothing else. */
function queryTap(onQuery: (sql: string, requestId?: string) => void): OrmLogger {
  return {
    log: () => undefined,
    error: () => undefined,
    warn: () => undefined,
    setDebugMode: () => undefined,
    isEnabled: () => true,
    logQuery: (context) =>
      onQuery(context.query ?? '', typeof context.requestId === 'string' ? context.requestId : undefined),
  };
}
