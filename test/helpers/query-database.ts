import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { ormConfig } from '../../src/db/orm-config';
import { createTestDatabase } from './test-database';

/**
 * A test file's own database (a copy of the migrated template) with an ORM on it and nothing else: no HTTP, no
 * services, no queue. For the tests of the areas' queries (`src/domain/<area>/*.queries.ts`), which call a query as the domain does and read the rows.
 */
export interface QueryDatabase {
  orm: MikroORM;
  url: string;
  /** A fresh EntityManager, as a request or a job gets one. */
  em(): EntityManager;
  /** Every statement the ORM ran, in order; `clear()` before the part a test counts. */
  statements: string[];
  close(): Promise<void>;
}

export async function openQueryDatabase(): Promise<QueryDatabase> {
  const database = await createTestDatabase();
  const statements: string[] = [];
  const orm = await MikroORM.init(
    ormConfig(database.url, {
      pool: { min: 0, max: 4 },
      loggerFactory: () => ({
        log: () => undefined,
        error: () => undefined,
        warn: () => undefined,
        setDebugMode: () => undefined,
        isEnabled: () => true,
        logQuery: (context) => void statements.push(context.query ?? ''),
      }),
    }),
  );
  return {
    orm,
    url: database.url,
    em: () => orm.em.fork(),
    statements,
    async close() {
      await orm.close(true);
      await database.drop();
    },
  };
}
