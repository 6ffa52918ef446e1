import { Migration } from '@mikro-orm/migrations';

/**
 * A delivered certified translation keeps its reviewed bytes, before the certification footer (D20), so that a
 * revision drafts from them (D30) rather than from the stamped copy, which would carry two footers.
 */
export class Migration20261128100000_unstamped_translations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "files" add column "unstamped_storage_key" varchar(100) null;`);
    // The storage sweep asks by key which bytes a row claims (D25).
    this.addSql(`create index "files_unstamped_storage_key_index" on "files" ("unstamped_storage_key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "files_unstamped_storage_key_index";`);
    this.addSql(`alter table "files" drop column "unstamped_storage_key";`);
  }
}
