import type { MikroORM } from '@mikro-orm/postgresql';

/** Applies pending migrations; returns the names applied. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
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
