import { Migration } from '@mikro-orm/migrations';

export class Migration20261122044624_file_derived_from extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "files" add column "derived_from_id" uuid null;`);
    this.addSql(`create index "files_derived_from_id_index" on "files" ("derived_from_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "files_derived_from_id_index";`);
    this.addSql(`alter table "files" drop column "derived_from_id";`);
  }
}
