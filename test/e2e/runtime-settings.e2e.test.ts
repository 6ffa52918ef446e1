import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/db/database';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

/** docs/architecture.md "Runtime settings": the pool and the statement timeout of a process's ORM. */
let database: TestDatabase;
let db: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({
    databaseUrl: database.url,
    dataDir: mkdtempSync(join(tmpdir(), 'ltk-runtime-')),
    databasePoolSize: 3,
    statementTimeoutMs: 300,
  });
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('runtime settings', () => {
  it('cancels a statement that runs past the timeout, and keeps answering', async () => {
    const connection = db.orm.em.fork().getConnection();
    expect((await connection.execute('SHOW statement_timeout'))[0]).toEqual({ statement_timeout: '300ms' });
    await expect(connection.execute('SELECT pg_sleep(1)')).rejects.toThrow(/statement timeout/);
    expect(await connection.execute('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('lends at most the configured connections', () => {
    expect(db.orm.config.get('pool')).toMatchObject({ max: 3 });
  });
});
