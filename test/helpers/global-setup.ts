import 'reflect-metadata';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { migrate } from '../../src/db/migrations';
import { ormConfig } from '../../src/db/orm-config';
import { databaseUrl, RUN_DIR_ENV, SERVER_ENV, TEMPLATE_ENV, withAdminClient } from './test-database';

/** Starts the test PostgreSQL (embedded unless TEST_DATABASE_URL is set) and migrates the template database once. */
export default async function globalSetup(): Promise<void> {
  // One temporary root per run: every test's tmpdir() (and its child processes') is under it, so a run reads no
  // other run's files and the teardown removes everything it wrote. Traversable: as root the embedded server
  // runs as the postgres OS user and keeps its data in here.
  const runDir = mkdtempSync(join(tmpdir(), 'ltk-test-run-'));
  chmodSync(runDir, 0o711);
  process.env.TMPDIR = runDir;
  process.env[RUN_DIR_ENV] = runDir;

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
  // pg-boss installs its own schema on first start: do it once here so every copy starts with it.
  // schedule off: pg-boss's scheduler timer outlives a non-graceful stop and would keep jest from exiting.
  const boss = new PgBoss({ connectionString: databaseUrl(serverUrl, template), schema: 'pgboss', schedule: false, supervise: false });
  await boss.start();
  await boss.stop({ graceful: false, wait: true });

  // MikroORM and type-graphql keep their metadata in globals, and the setup ran in jest's own context: left here,
  // they would leak into every test file's context and mix two copies of the entity metadata.
  for (const key of Object.getOwnPropertyNames(globalThis)) {
    if (key.startsWith('mikro-orm') || key === 'TypeGraphQLMetadataStorage') delete (globalThis as Record<string, unknown>)[key];
  }
}
