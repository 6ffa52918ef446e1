import { Migration } from '@mikro-orm/migrations';

/** D25: a storage key is named here, by a live process, before bytes are written under it; files are found by key. */
export class Migration20261124170000_storage_intents extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "storage_intents" ("storage_key" varchar(100) not null, "process_id" int not null, "created_at" timestamptz not null, constraint "storage_intents_pkey" primary key ("storage_key"));`,
    );
    this.addSql(`create index "files_storage_key_index" on "files" ("storage_key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "files_storage_key_index";`);
    this.addSql(`drop table if exists "storage_intents" cascade;`);
  }
}
