import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../src/db/orm-config';
import { newId } from '../../src/domain/shared/ids';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

/** Migration20261125110000_file_attachment_owners: the owner columns of attachments become foreign keys, and back. */
let database: TestDatabase;
let orm: MikroORM;
beforeAll(async () => {
  database = await createTestDatabase({ empty: true });
  orm = await MikroORM.init(ormConfig(database.url, { logger: () => undefined }));
  await orm.migrator.up({ to: 'Migration20261124200000_lists_at_scale' });
});
afterAll(async () => {
  await orm.close(true);
  await database.drop();
});

const sql = <T extends object = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  orm.em.getConnection().execute<T[]>(text, params);

const WORK = `'standard', 'es', 'en', 'word', 100, 1500, '[]', 0, 1500, 'USD', now(), now(), '{"kind": "api_key", "member": null}'`;

it('moves each attachment onto its quote or order, drops those whose owner is gone, and moves them back on the way down', async () => {
  const [account, file, quote, payment, order] = [newId(), newId(), newId(), newId(), newId()];
  await sql(
    `INSERT INTO accounts (id, name, email, created_at, updated_at) VALUES (?, 'Firm', 'firm@example.test', now(), now())`,
    [account],
  );
  await sql(
    `INSERT INTO files (id, account_id, name, mime_type, size_bytes, sha256, storage_key, created_at) VALUES (?, ?, 'a.pdf', 'application/pdf', 1, ?, 'k', now())`,
    [file, account, '0'.repeat(64)],
  );
  await sql(
    `INSERT INTO quotes (id, account_id, file_ids, unit_price_cents, expires_at, service_type, source_language, target_language, unit_type, unit_count, subtotal_cents, addons, addons_total_cents, total_cents, currency, created_at, updated_at, placed_by)
     VALUES (?, ?, ?, 15, now(), ${WORK})`,
    [quote, account, `{${file}}`],
  );
  await sql(
    `INSERT INTO payments (id, provider, description, amount_cents, currency, created_at, updated_at) VALUES (?, 'sandbox', 'Translation', 1500, 'USD', now(), now())`,
    [payment],
  );
  await sql(
    `INSERT INTO orders (id, number, account_id, quote_id, payment_id, service_type, source_language, target_language, unit_type, unit_count, subtotal_cents, addons, addons_total_cents, total_cents, currency, created_at, updated_at, placed_by)
     VALUES (?, 'LT-2601-AAAAAA', ?, ?, ?, ${WORK})`,
    [order, account, quote, payment],
  );
  const [onQuote, onOrder, orphan] = [newId(), newId(), newId()];
  await sql(
    `INSERT INTO file_attachments (id, file_id, owner_type, owner_id, created_at) VALUES (?, ?, 'quote', ?, now()), (?, ?, 'order', ?, now()), (?, ?, 'quote', ?, now())`,
    [onQuote, file, quote, onOrder, file, order, orphan, file, newId()],
  );

  await orm.migrator.up({ to: 'Migration20261125110000_file_attachment_owners' });
  expect(await sql(`SELECT id, quote_id, order_id FROM file_attachments ORDER BY quote_id NULLS LAST`)).toEqual([
    { id: onQuote, quote_id: quote, order_id: null },
    { id: onOrder, quote_id: null, order_id: order },
  ]);

  await orm.migrator.down();
  expect(await sql(`SELECT id, owner_type, owner_id FROM file_attachments ORDER BY owner_type DESC`)).toEqual([
    { id: onQuote, owner_type: 'quote', owner_id: quote },
    { id: onOrder, owner_type: 'order', owner_id: order },
  ]);
});
