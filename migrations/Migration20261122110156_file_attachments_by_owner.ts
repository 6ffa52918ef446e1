import { Migration } from '@mikro-orm/migrations';

export class Migration20261122110156_file_attachments_by_owner extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "file_attachments_owner_id_owner_type_index" on "file_attachments" ("owner_id", "owner_type");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "file_attachments_owner_id_owner_type_index";`);
  }
}
