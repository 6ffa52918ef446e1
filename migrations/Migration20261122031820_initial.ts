import { Migration } from '@mikro-orm/migrations';

export class Migration20261122031820_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "accounts" ("id" uuid not null, "name" varchar(255) not null, "email" varchar(254) not null, "status" text check ("status" in ('pending', 'approved', 'suspended')) not null default 'pending', "api_key_hash" varchar(64) null, "api_key_last4" varchar(4) null, "api_key_issued_at" timestamptz null, "approved_at" timestamptz null, "suspended_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "accounts_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "accounts" add constraint "accounts_email_unique" unique ("email");`);
    this.addSql(`alter table "accounts" add constraint "accounts_api_key_hash_unique" unique ("api_key_hash");`);

    this.addSql(
      `create table "addons" ("code" varchar(50) not null, "name" varchar(100) not null, "pricing_type" text check ("pricing_type" in ('flat', 'per_copy')) not null, "price_cents" int not null, "currency" varchar(3) not null, "position" smallint not null, "updated_at" timestamptz not null, constraint "addons_pkey" primary key ("code"));`,
    );

    this.addSql(
      `create table "audit_entries" ("id" uuid not null, "actor_id" uuid null, "actor_label" varchar(254) not null, "action" varchar(100) not null, "resource_type" varchar(50) not null, "resource_id" uuid not null, "from_state" varchar(50) null, "to_state" varchar(50) null, "details" jsonb null, "created_at" timestamptz not null, constraint "audit_entries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "audit_entries_resource_id_created_at_index" on "audit_entries" ("resource_id", "created_at");`,
    );

    this.addSql(
      `create table "interpretation_rates" ("mode" text check ("mode" in ('on_site', 'video_remote', 'sight_translation', 'asl', 'ai_conference')) not null, "unit_price_cents" int not null, "minimum_hours" smallint not null, "currency" varchar(3) not null, "position" smallint not null, "updated_at" timestamptz not null, constraint "interpretation_rates_pkey" primary key ("mode"));`,
    );

    this.addSql(
      `create table "sent_emails" ("id" uuid not null, "kind" varchar(50) not null, "to" varchar(254) not null, "from" varchar(254) not null, "subject" varchar(255) not null, "text" text not null, "created_at" timestamptz not null, constraint "sent_emails_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "sent_emails_to_created_at_index" on "sent_emails" ("to", "created_at");`);

    this.addSql(
      `create table "service_rates" ("service_type" text check ("service_type" in ('certified', 'standard')) not null, "unit" text check ("unit" in ('page', 'word', 'hour')) not null, "unit_price_cents" int not null, "currency" varchar(3) not null, "position" smallint not null, "updated_at" timestamptz not null, constraint "service_rates_pkey" primary key ("service_type"));`,
    );

    this.addSql(
      `create table "staff_users" ("id" uuid not null, "email" varchar(254) not null, "name" varchar(255) not null, "role" text check ("role" in ('staff', 'admin')) not null default 'staff', "token_hash" varchar(64) not null, "created_at" timestamptz not null, constraint "staff_users_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "staff_users" add constraint "staff_users_email_unique" unique ("email");`);
    this.addSql(`alter table "staff_users" add constraint "staff_users_token_hash_unique" unique ("token_hash");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "accounts" cascade;`);

    this.addSql(`drop table if exists "addons" cascade;`);

    this.addSql(`drop table if exists "audit_entries" cascade;`);

    this.addSql(`drop table if exists "interpretation_rates" cascade;`);

    this.addSql(`drop table if exists "sent_emails" cascade;`);

    this.addSql(`drop table if exists "service_rates" cascade;`);

    this.addSql(`drop table if exists "staff_users" cascade;`);
  }
}
