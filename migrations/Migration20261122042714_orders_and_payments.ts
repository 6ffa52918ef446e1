import { Migration } from '@mikro-orm/migrations';

export class Migration20261122042714_orders_and_payments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "payments" ("id" uuid not null, "provider" varchar(20) not null, "provider_order_id" varchar(100) null, "approval_url" varchar(2048) null, "status" text check ("status" in ('created', 'completed', 'voided', 'refunded')) not null default 'created', "description" varchar(255) not null, "amount_cents" int not null, "currency" varchar(3) not null, "capture_id" varchar(100) null, "redirect_url" varchar(2048) null, "paid_at" timestamptz null, "refunded_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "payments_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_provider_order_id_unique" unique ("provider_order_id");`,
    );

    this.addSql(
      `create table "orders" ("id" uuid not null, "number" varchar(30) not null, "account_id" uuid not null, "quote_id" uuid not null, "payment_id" uuid not null, "status" text check ("status" in ('pending_payment', 'processing', 'in_review', 'completed', 'on_hold', 'cancelled')) not null default 'pending_payment', "held_from" text check ("held_from" in ('pending_payment', 'processing', 'in_review', 'completed', 'on_hold', 'cancelled')) null, "hold_reason" varchar(500) null, "service_type" text check ("service_type" in ('certified', 'standard')) not null, "source_language" varchar(20) not null, "target_language" varchar(20) not null, "unit_type" text check ("unit_type" in ('page', 'word', 'hour')) not null, "unit_count" int not null, "subtotal_cents" int not null, "addons" jsonb not null, "addons_total_cents" int not null, "total_cents" int not null, "currency" varchar(3) not null, "reference" varchar(255) null, "due_at" timestamptz null, "completed_at" timestamptz null, "cancelled_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "orders_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "orders" add constraint "orders_number_unique" unique ("number");`);
    this.addSql(`alter table "orders" add constraint "orders_quote_id_unique" unique ("quote_id");`);
    this.addSql(`alter table "orders" add constraint "orders_payment_id_unique" unique ("payment_id");`);
    this.addSql(`create index "orders_status_due_at_index" on "orders" ("status", "due_at");`);
    this.addSql(`create index "orders_account_id_created_at_index" on "orders" ("account_id", "created_at");`);

    this.addSql(
      `alter table "orders" add constraint "orders_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "orders" add constraint "orders_quote_id_foreign" foreign key ("quote_id") references "quotes" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "orders" add constraint "orders_payment_id_foreign" foreign key ("payment_id") references "payments" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop constraint "orders_payment_id_foreign";`);

    this.addSql(`drop table if exists "payments" cascade;`);

    this.addSql(`drop table if exists "orders" cascade;`);
  }
}
