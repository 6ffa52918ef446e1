import type { MikroORM } from '@mikro-orm/postgresql';

/** Applies pending migrations; returns the names applied. */
/**
 * Applies pending migrations in one transaction, without the statement timeout of request paths: an index built
 * over years of rows takes longer than any request may.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const connection = orm.em.getConnection();
  const applied = await connection.transactional(async (trx) => {
    await connection.execute('SET LOCAL statement_timeout = 0', [], 'run', trx);
    return orm.getMigrator().up({ transaction: trx });
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
    await orm.em.getConnection().execute('SELECT 1');
  } catch {
    return { database: false, migrations: false };
  }
  const pending = await orm.getMigrator().getPendingMigrations().catch(() => [{}]);
  return { database: true, migrations: pending.length === 0 };
}
