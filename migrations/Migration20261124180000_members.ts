import { Migration } from '@mikro-orm/migrations';

/**
 * D27: people at client accounts, their sign-in codes and sessions, and who placed each quote, order and booking.
 * Every account already approved gets its e-mail as its first admin, as approval now does; work made before was made
 * with the API key.
 */
export class Migration20261124180000_members extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "account_members" ("id" uuid not null, "account_id" uuid not null, "email" varchar(254) not null, "name" varchar(255) not null, "role" text check ("role" in ('admin', 'member', 'viewer')) not null, "status" text check ("status" in ('invited', 'active', 'removed')) not null default 'invited', "last_sign_in_at" timestamptz null, "removed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "account_members_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "account_members_live_email" on "account_members" ("email") where "status" <> 'removed';`,
    );
    this.addSql(
      `create index "account_members_account_id_created_at_index" on "account_members" ("account_id", "created_at");`,
    );
    this.addSql(
      `alter table "account_members" add constraint "account_members_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `insert into "account_members" ("id", "account_id", "email", "name", "role", "created_at", "updated_at") select gen_random_uuid(), "id", "email", "name", 'admin', now(), now() from "accounts" where "approved_at" is not null;`,
    );

    this.addSql(
      `create table "sessions" ("id" uuid not null, "token_hash" varchar(64) not null, "subject_kind" varchar(20) not null, "subject_id" uuid not null, "created_at" timestamptz not null, "last_used_at" timestamptz not null, "expires_at" timestamptz not null, "ended_at" timestamptz null, constraint "sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "sessions_subject_kind_subject_id_index" on "sessions" ("subject_kind", "subject_id");`);

    this.addSql(
      `create table "sign_in_codes" ("id" uuid not null, "email" varchar(254) not null, "code_hash" varchar(64) not null, "requested_from" varchar(64) not null, "attempts" int not null default 0, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "sign_in_codes_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "sign_in_codes_requested_from_created_at_index" on "sign_in_codes" ("requested_from", "created_at");`,
    );
    this.addSql(`create index "sign_in_codes_email_created_at_index" on "sign_in_codes" ("email", "created_at");`);

    for (const table of ['quotes', 'orders', 'interpretation_bookings']) {
      this.addSql(
        `alter table "${table}" add column "placed_by" jsonb not null default '{"kind": "api_key", "member": null}';`,
      );
      this.addSql(`alter table "${table}" alter column "placed_by" drop default;`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['quotes', 'orders', 'interpretation_bookings'])
      this.addSql(`alter table "${table}" drop column "placed_by";`);
    this.addSql(`drop table if exists "sign_in_codes" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`drop table if exists "account_members" cascade;`);
  }
}
