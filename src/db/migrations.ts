import type { MikroORM } from '@mikro-orm/postgresql';
import { inConnectionTransaction, runSql } from './orm-driver';

/**
 * Applies pending migrations in one transaction, without the statement timeout of request paths: an index built
 * over years of rows takes longer than any request may.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await inConnectionTransaction(orm, async (transaction, sql) => {
    await sql('SET LOCAL statement_timeout = 0');
    return orm.migrator.up({ transaction });
  });
  return applied.map((migration) => migration.name);
}

export interface Readiness {
  database: boolean;
  migrations: boolean;
}

/** /readyz: the database answers and no migration is pending. */
export async function checkReadiness(orm: MikroORM): Promise<Readiness> {
  try {
    await runSql(orm.em.fork(), 'SELECT 1');
  } catch {
    return { database: false, migrations: false };
  }
  const pending = await orm.migrator.getPendingMigrations().catch(() => [{}]);
  return { database: true, migrations: pending.length === 0 };
}
