import { Migration } from '@mikro-orm/migrations';

/**
 * An account's orders counted by status, kept by triggers, so that a list's exact total is read instead of counted
 * (D3; docs/architecture.md, "Lists at scale"). The triggers are statement-level with transition tables: a bulk
 * statement adds one change per account and status it touched, a single-row one at most two, and an update that
 * changes no status adds none. Changes are only ever inserted, so concurrent writers never wait for one another.
 */
export class Migration20261125130000_order_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "order_counts" ("account_id" uuid not null, "status" text not null, "n" int not null, constraint "order_counts_pkey" primary key ("account_id", "status"));`,
    );
    this.addSql(
      `create table "order_count_changes" ("id" bigserial primary key, "account_id" uuid not null, "status" text not null, "delta" int not null);`,
    );
    this.addSql(
      `create index "order_count_changes_account_id_status_index" on "order_count_changes" ("account_id", "status");`,
    );
    this.addSql(`create function order_counts_change() returns trigger language plpgsql as $$
begin
  insert into order_count_changes (account_id, status, delta)
  select account_id, status, sum(delta) from (
    select account_id, status::text, 1 as delta from new_orders
    union all
    select account_id, status::text, -1 from old_orders) changed
  group by account_id, status
  having sum(delta) <> 0;
  return null;
end $$;`);
    this.addSql(`create function order_counts_insert() returns trigger language plpgsql as $$
begin
  insert into order_count_changes (account_id, status, delta)
  select account_id, status::text, count(*) from new_orders group by account_id, status;
  return null;
end $$;`);
    this.addSql(`create function order_counts_delete() returns trigger language plpgsql as $$
begin
  insert into order_count_changes (account_id, status, delta)
  select account_id, status::text, -count(*) from old_orders group by account_id, status;
  return null;
end $$;`);
    this.addSql(`create function order_counts_truncate() returns trigger language plpgsql as $$
begin
  delete from order_count_changes;
  delete from order_counts;
  return null;
end $$;`);
    this.addSql(
      `create trigger order_counts_insert after insert on "orders" referencing new table as new_orders for each statement execute function order_counts_insert();`,
    );
    this.addSql(
      `create trigger order_counts_update after update on "orders" referencing old table as old_orders new table as new_orders for each statement execute function order_counts_change();`,
    );
    this.addSql(
      `create trigger order_counts_delete after delete on "orders" referencing old table as old_orders for each statement execute function order_counts_delete();`,
    );
    this.addSql(
      `create trigger order_counts_truncate after truncate on "orders" for each statement execute function order_counts_truncate();`,
    );
    // Also the way to rebuild the counts after writes that bypassed the triggers (a restore with triggers disabled).
    this.addSql(
      `insert into "order_counts" ("account_id", "status", "n") select "account_id", "status", count(*) from "orders" group by "account_id", "status";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "order_counts_insert" on "orders";`);
    this.addSql(`drop trigger "order_counts_update" on "orders";`);
    this.addSql(`drop trigger "order_counts_delete" on "orders";`);
    this.addSql(`drop trigger "order_counts_truncate" on "orders";`);
    this.addSql(
      `drop function order_counts_insert(), order_counts_change(), order_counts_delete(), order_counts_truncate();`,
    );
    this.addSql(`drop table if exists "order_counts" cascade;`);
    this.addSql(`drop table if exists "order_count_changes" cascade;`);
  }
}
