import { Migration } from '@mikro-orm/migrations';

/**
 * D30: the client's instructions to the translator on quotes and their orders, and each order's conversation between
 * the client and the desk, read a page at a time, newest first.
 */
export class Migration20261126110500_order_messages extends Migration {
  override async up(): Promise<void> {
    for (const table of ['quotes', 'orders']) {
      this.addSql(`alter table "${table}" add column "instructions" varchar(2000) null;`);
    }
    this.addSql(
      `create table "order_messages" ("id" uuid not null, "order_id" uuid not null, "author_kind" text check ("author_kind" in ('client', 'staff')) not null, "author_name" varchar(255) not null, "text" varchar(4000) not null, "created_at" timestamptz not null, constraint "order_messages_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "order_messages_order_created" on "order_messages" ("order_id", "created_at", "id");`);
    this.addSql(
      `alter table "order_messages" add constraint "order_messages_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_messages" cascade;`);
    for (const table of ['quotes', 'orders']) {
      this.addSql(`alter table "${table}" drop column "instructions";`);
    }
  }
}
