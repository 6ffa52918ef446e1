import type { MikroORM } from '@mikro-orm/core';
import { defineConfig, type Options, type SqlEntityManager } from '@mikro-orm/postgresql';
import { ENTITIES } from './entities';
import { MIGRATIONS_RUN_DIR, REPO_ROOT, RUNNING_COMPILED } from './paths';

/** The one MikroORM configuration: the server, the CLI and the tests all build theirs here. */
export function ormConfig(clientUrl: string, overrides: Partial<Options> = {}): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    extensions: [lazyMigrator],
    baseDir: REPO_ROOT,
    discovery: { warnWhenNoEntities: false },
    // Migrations are loaded with require(), which also works under jest's transform.
    dynamicImportProvider: (id: string) => Promise.resolve(require(id)),
    migrations: {
      path: MIGRATIONS_RUN_DIR,
      glob: RUNNING_COMPILED ? '!(*.d).js' : '!(*.d).ts',
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
    },
    // pg-boss keeps its own tables, versioned by itself, in this schema: not ours to diff or migrate.
    schemaGenerator: { ignoreSchema: ['pgboss'] },
    pool: { min: 0, max: 10 },
    colors: false,
    ...overrides,
  });
}

/**
 * `orm.migrator` as MikroORM's Migrator extension gives it, loaded on first use: the migrator and umzug are
 * about 300 modules that a process answering requests needs only for /readyz, and every test file loaded them.
 */
const lazyMigrator = {
  register(orm: MikroORM): void {
    orm.config.registerExtension('@mikro-orm/migrator', () => {
      const { Migrator } = require('@mikro-orm/migrations') as typeof import('@mikro-orm/migrations');
      return new Migrator(orm.em as SqlEntityManager);
    });
  },
};
