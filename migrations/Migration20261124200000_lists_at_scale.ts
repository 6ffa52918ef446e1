import { Migration } from '@mikro-orm/migrations';

/**
 * Lists at scale (docs/architecture.md, "Lists at scale"; issue 25): each list's filters and sort, tie-break
 * included, in one index; the open work in a partial index (the overdue queue); trigram indexes for the desk's
 * search (pg_trgm ships with PostgreSQL and the embedded server, and is a trusted extension).
 */
export class Migration20261124200000_lists_at_scale extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`drop index "orders_account_id_created_at_index";`);
    this.addSql(`drop index "orders_status_due_at_index";`);
    this.addSql(`create index "orders_account_created" on "orders" ("account_id", "created_at", "id");`);
    this.addSql(
      `create index "orders_account_status_created" on "orders" ("account_id", "status", "created_at", "id");`,
    );
    this.addSql(`create index "orders_account_updated" on "orders" ("account_id", "updated_at", "id");`);
    this.addSql(`create index "orders_status_due" on "orders" ("status", "due_at", "created_at", "id");`);
    this.addSql(`create index "orders_due" on "orders" ("due_at", "created_at", "id");`);
    this.addSql(
      `create index "orders_open_due" on "orders" ("due_at", "created_at", "id") where "status" not in ('completed', 'cancelled');`,
    );
    this.addSql(`create index "orders_number_trgm" on "orders" using gin ("number" gin_trgm_ops);`);
    this.addSql(`create index "orders_reference_trgm" on "orders" using gin ("reference" gin_trgm_ops);`);
    this.addSql(`create index "accounts_name_trgm" on "accounts" using gin ("name" gin_trgm_ops);`);
    this.addSql(`drop index "interpretation_bookings_account_id_created_at_index";`);
    this.addSql(
      `create index "interpretation_bookings_account_created" on "interpretation_bookings" ("account_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "interpretation_bookings_account_status_created" on "interpretation_bookings" ("account_id", "status", "created_at", "id");`,
    );
    this.addSql(
      `create index "interpretation_bookings_account_updated" on "interpretation_bookings" ("account_id", "updated_at", "id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `drop index "interpretation_bookings_account_updated", "interpretation_bookings_account_status_created", "interpretation_bookings_account_created";`,
    );
    this.addSql(
      `create index "interpretation_bookings_account_id_created_at_index" on "interpretation_bookings" ("account_id", "created_at");`,
    );
    this.addSql(
      `drop index "accounts_name_trgm", "orders_reference_trgm", "orders_number_trgm", "orders_open_due", "orders_due", "orders_status_due", "orders_account_updated", "orders_account_status_created", "orders_account_created";`,
    );
    this.addSql(`create index "orders_status_due_at_index" on "orders" ("status", "due_at");`);
    this.addSql(`create index "orders_account_id_created_at_index" on "orders" ("account_id", "created_at");`);
  }
}
