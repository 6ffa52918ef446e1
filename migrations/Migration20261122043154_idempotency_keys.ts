import { Migration } from '@mikro-orm/migrations';

export class Migration20261122043154_idempotency_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "idempotency_keys" ("id" uuid not null, "account_id" uuid not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "status_code" smallint null, "response_body" jsonb null, "created_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`);
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_account_id_key_unique" unique ("account_id", "key");`,
    );

    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }
}
