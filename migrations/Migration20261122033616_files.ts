import { Migration } from '@mikro-orm/migrations';

export class Migration20261122033616_files extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "files" ("id" uuid not null, "account_id" uuid not null, "type" text check ("type" in ('source', 'translation', 'certificate')) not null default 'source', "name" varchar(255) not null, "mime_type" varchar(100) not null, "size_bytes" int not null, "sha256" varchar(64) not null, "storage_key" varchar(100) not null, "analysis_status" text check ("analysis_status" in ('pending', 'counted', 'uncountable')) not null default 'pending', "analysis_note" varchar(50) null, "page_count" int null, "word_count" int null, "analysed_at" timestamptz null, "created_at" timestamptz not null, constraint "files_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "files_account_id_created_at_index" on "files" ("account_id", "created_at");`);

    this.addSql(
      `create table "file_attachments" ("id" uuid not null, "file_id" uuid not null, "owner_type" text check ("owner_type" in ('quote', 'order')) not null, "owner_id" uuid not null, "created_at" timestamptz not null, constraint "file_attachments_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "file_attachments" add constraint "file_attachments_file_id_owner_type_owner_id_unique" unique ("file_id", "owner_type", "owner_id");`,
    );

    this.addSql(
      `alter table "files" add constraint "files_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "file_attachments" add constraint "file_attachments_file_id_foreign" foreign key ("file_id") references "files" ("id") on update cascade on delete restrict;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "file_attachments" drop constraint "file_attachments_file_id_foreign";`);

    this.addSql(`drop table if exists "files" cascade;`);

    this.addSql(`drop table if exists "file_attachments" cascade;`);
  }
}
