import { MikroORM } from '@mikro-orm/postgresql';
import { migrate } from '../../src/db/migrations';
import { ormConfig } from '../../src/db/orm-config';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

let database: TestDatabase;
let orm: MikroORM;
beforeAll(async () => {
  database = await createTestDatabase({ empty: true });
  orm = await MikroORM.init(ormConfig(database.url, { logger: () => undefined }));
});
afterAll(async () => {
  await orm.close(true);
  await database.drop();
});

describe('migrations', () => {
  it('build exactly the schema the entities describe (an empty schema diff)', async () => {
    const applied = await migrate(orm);
    expect(applied.length).toBeGreaterThan(0);
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    expect(await orm.migrator.getPendingMigrations()).toEqual([]);
  });

  it('are idempotent: running them again applies nothing', async () => {
    expect(await migrate(orm)).toEqual([]);
  });

  it('can be rolled back to nothing and applied again', async () => {
    await orm.migrator.down({ to: 0 });
    const tables = await orm.em
      .getConnection()
      .execute(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'mikro_orm_migrations'`,
      );
    expect(tables).toEqual([]);
    await migrate(orm);
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
  });
});
