import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { migrate } from '../../src/db/migrations';
import { SANDBOX_WORKER_SCRIPT } from '../../src/db/paths';
import { measureRuntimeBaseline } from '../../src/documents/sandbox/runtime-baseline';
import { ormConfig } from '../../src/db/orm-config';
import { JobQueue } from '../../src/jobs/job-queue';
import { createLogger } from '../../src/shared/logger';
import runSetup from './run-setup';
import {
  databaseUrl,
  RUN_DIR_ENV,
  RUNTIME_MEMORY_ENV,
  SERVER_ENV,
  TEMPLATE_ENV,
  withAdminClient,
} from './test-database';

/**
 * The db and e2e layers' setup: the run's temporary root, then the test PostgreSQL (embedded unless TEST_DATABASE_URL
 * is set) with its template database migrated once.
 */
export default async function globalSetup(): Promise<void> {
  runSetup();
  const runDir = process.env[RUN_DIR_ENV]!;
  // What the embedded server keeps outside a DATA_DIR its OS user cannot enter (as root) stays in the run too.
  process.env.EMBEDDED_POSTGRES_SHARED_DIR = join(runDir, 'embedded-postgres-shared');

  // What this runtime needs to start a document sandbox child, measured once for the run rather than by every test
  // file's app (each file has its own module registry, so the per-process memo would not hold): a child less per file.
  // Without a build each app measures it, or says the worker is not built, as without this.
  const baselineKb = await measureRuntimeBaseline(SANDBOX_WORKER_SCRIPT).catch(() => undefined);
  if (baselineKb) process.env[RUNTIME_MEMORY_ENV] = String(Math.ceil(baselineKb / 1024));

  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres(mkdtempSync(join(tmpdir(), 'ltk-test-pg-')), 'postgres');
    (globalThis as { __ltkEmbedded?: typeof embedded }).__ltkEmbedded = embedded;
    serverUrl = embedded.url;
  }
  process.env[SERVER_ENV] = serverUrl;
  const template = `ltk_template_${process.pid}`;
  process.env[TEMPLATE_ENV] = template;

  await withAdminClient(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${template}"`);
  });
  const orm = await MikroORM.init(ormConfig(databaseUrl(serverUrl, template), { logger: () => undefined }));
  try {
    await migrate(orm);
  } finally {
    await orm.close(true);
  }
  // pg-boss installs its own schema and the queues on first start: done once here, so every copy starts with them.
  const queue = await JobQueue.start(
    databaseUrl(serverUrl, template),
    createLogger('silent'),
    {
      pollingIntervalSeconds: 2,
      heartbeatSeconds: 30,
    },
    { schedules: false },
  );
  await queue.stop();

  // MikroORM and type-graphql keep their metadata in globals, and the setup ran in jest's own context: left here,
  // they would leak into every test file's context and mix two copies of the entity metadata.
  for (const key of Object.getOwnPropertyNames(globalThis)) {
    if (key.startsWith('mikro-orm') || key === 'TypeGraphQLMetadataStorage')
      delete (globalThis as Record<string, unknown>)[key];
  }
}
