import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { loadConfig } from '../src/config/load-config';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrations';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { ormConfig } from '../src/db/orm-config';
import { startInProcessApp } from './in-process-app';
import { age, multiply, shapeOf } from './scale-data';
import { seed } from './seed';

/**
 * The databases of the scale benchmarks (README "At scale"): one of 200 orders seeded through the service's doors, and
 * a large one grown from it in bulk SQL (bench/scale-data.ts), `scale` times a few years of data. Named
 * `ltk_scale_small` and `ltk_scale_<scale>` on the server, so `BENCH_REUSE=1` finds them again for another run or
 * another benchmark (bench:scale, bench:console).
 */

export const SEEDED_ORDERS = 200;

/** Where a scale benchmark keeps its databases and the settings of the services it starts on them. */
export interface ScaleServer {
  /** The PostgreSQL server: DATABASE_URL's, or an embedded one under the run's temporary directory. */
  url: string;
  embedded: boolean;
  /** The services' environment: the run's data directory, a fresh key, budgets that never refuse the load. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function scaleServer(prefix: string): Promise<ScaleServer> {
  const tempDir = mkdtempSync(join(tmpdir(), prefix));
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(join(tempDir, 'pg'), 'postgres');
  return {
    url: process.env.DATABASE_URL ?? embedded!.url,
    embedded: embedded !== undefined,
    env: {
      ...process.env,
      DATA_DIR: tempDir,
      APP_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'silent',
    },
    async close() {
      await embedded?.stop();
      rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

/** What one database of the run needs to be asked the benchmarks' requests. */
export interface Database {
  name: string;
  url: string;
  key: string;
  staffToken: string;
  searches: string[];
  bookingSearches: string[];
  lastPage: number;
}

/** The small and the large database: made now, or kept from an earlier run (BENCH_REUSE=1), and migrated. */
export async function databases(
  serverUrl: string,
  env: NodeJS.ProcessEnv,
  scale: number,
): Promise<[Database, Database]> {
  const names = ['ltk_scale_small', `ltk_scale_${String(scale).replace('.', '_')}`];
  const urls = names.map((name) => withDatabase(serverUrl, name));
  const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  try {
    const existing = new Set(
      (
        await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname = ANY($1)`, [names])
      ).rows.map((row) => row.datname),
    );
    if (process.env.BENCH_REUSE !== '1' || existing.size < 2) {
      for (const name of names) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${names[0]}"`);
      await seedSmall(urls[0], env);
      const step = (what: string) => console.log(`  large database, ${what}`);
      console.log(`building the large database (scale ${scale})`);
      await admin.query(`CREATE DATABASE "${names[1]}" TEMPLATE "${names[0]}"`);
      const started = Date.now();
      await withClient(urls[1], async (db) => {
        const integrator = (await db.query<{ account_id: string }>(`SELECT account_id FROM orders LIMIT 1`)).rows[0]
          .account_id;
        await multiply(db, shapeOf(scale), integrator, step);
        const { rows } = await db.query<{ size: string }>(
          `SELECT pg_size_pretty(pg_database_size(current_database())) AS size`,
        );
        console.log(`  built in ${((Date.now() - started) / 1000).toFixed(0)} s: ${rows[0].size}`);
      });
    }
  } finally {
    await admin.end();
  }
  return Promise.all(names.map((name, i) => described(name, urls[i]))) as Promise<[Database, Database]>;
}

/** The service's own doors make the small database: one integrator's orders and bookings, and a staff admin. */
async function seedSmall(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig({ ...env, DATABASE_URL: url, APP_URL: 'http://127.0.0.1' });
  const db = await openDatabase(config);
  await migrate(db.orm);
  await db.close();
  const app = await startInProcessApp(config, url, () => {});
  try {
    const seeded = await seed(app.orm.em.fork(), app.services, app.call, app.base, SEEDED_ORDERS);
    // The credentials live with the data, so that a kept database (BENCH_REUSE) can be asked again.
    await app.orm.em
      .getConnection()
      .execute(`CREATE TABLE bench_scale_credentials AS SELECT ?::text AS key, ?::text AS staff_token`, [
        seeded.key,
        seeded.staffToken,
      ]);
  } finally {
    await app.close();
  }
  await withClient(url, age);
}

/** Migrates a database (new indexes included) and reads what its requests need. */
async function described(name: string, url: string): Promise<Database> {
  const orm = await MikroORM.init(ormConfig(url));
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  return withClient(url, async (db) => {
    const { key, staff_token } = (
      await db.query<{ key: string; staff_token: string }>(`SELECT key, staff_token FROM bench_scale_credentials`)
    ).rows[0];
    const integrator = (
      await db.query<{ account_id: string }>(
        `SELECT account_id FROM orders GROUP BY account_id ORDER BY count(*) DESC LIMIT 1`,
      )
    ).rows[0].account_id;
    const one = async (sql: string) =>
      Object.values((await db.query<Record<string, unknown>>(sql, [integrator])).rows[0])[0] as string;
    const searches = [
      await one(`SELECT right(number, 6) FROM orders ORDER BY account_id = $1, id LIMIT 1`),
      await one(`SELECT reference FROM orders WHERE reference IS NOT NULL ORDER BY account_id = $1, id LIMIT 1`),
      await one(`SELECT name FROM accounts ORDER BY id = $1, id LIMIT 1`),
    ];
    // Bookings are made with no reference: a number's end, and a firm's name.
    const bookingSearches = [
      await one(`SELECT right(number, 6) FROM interpretation_bookings ORDER BY account_id = $1, id LIMIT 1`),
      searches[2],
    ];
    const total = Number(await one(`SELECT count(*) FROM orders WHERE account_id = $1`));
    const lastPage = Math.max(1, Math.ceil(total / 15));
    return { name, url, key, staffToken: staff_token, searches, bookingSearches, lastPage };
  });
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
