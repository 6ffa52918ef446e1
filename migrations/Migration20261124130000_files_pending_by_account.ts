import { Migration } from '@mikro-orm/migrations';

/** D25: an account's files still waiting for analysis, counted at each upload to give its job its turn. */
export class Migration20261124130000_files_pending_by_account extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "files_pending_by_account" on "files" ("account_id") where "analysis_status" = 'pending';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "files_pending_by_account";`);
  }
}
