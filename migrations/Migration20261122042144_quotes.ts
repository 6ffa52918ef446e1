import { Migration } from '@mikro-orm/migrations';

export class Migration20261122042144_quotes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "quotes" ("id" uuid not null, "account_id" uuid not null, "stored_status" text check ("stored_status" in ('priced', 'converted')) not null default 'priced', "service_type" text check ("service_type" in ('certified', 'standard')) not null, "source_language" varchar(20) not null, "target_language" varchar(20) not null, "file_ids" text[] not null, "unit_type" text check ("unit_type" in ('page', 'word', 'hour')) not null, "unit_count" int not null, "unit_price_cents" int not null, "subtotal_cents" int not null, "addons" jsonb not null, "addons_total_cents" int not null, "total_cents" int not null, "currency" varchar(3) not null, "reference" varchar(255) null, "expires_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "quotes_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "quotes_account_id_created_at_index" on "quotes" ("account_id", "created_at");`);

    this.addSql(
      `alter table "quotes" add constraint "quotes_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "quotes" cascade;`);
  }
}
