import { Migration } from '@mikro-orm/migrations';

/**
 * Certified scans are translated by people (D30): an order waits in the translators' queue while a source the engine
 * cannot read has no translation; the queue is served by a partial index in the desk's sort.
 */
export class Migration20261127090000_awaiting_translator extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" add column "awaiting_translator" boolean not null default false;`);
    this.addSql(
      `create index "orders_awaiting_translator_due" on "orders" ("due_at", "created_at", "id") where "awaiting_translator";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "orders_awaiting_translator_due";`);
    this.addSql(`alter table "orders" drop column "awaiting_translator";`);
  }
}
