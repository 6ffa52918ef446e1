import { Migration } from '@mikro-orm/migrations';

/**
 * The console's account screen (docs/decisions.md D34): a trigram index on the e-mail beside the name's, so
 * `accounts(search:)` finds a part of either without reading the table; and the list's sort (newest first, by status
 * or not) in an index, so a page is read, not every account sorted.
 */
export class Migration20261212000000_account_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "accounts_email_trgm" on "accounts" using gin ("email" gin_trgm_ops);`);
    this.addSql(`create index "accounts_created" on "accounts" ("created_at", "id");`);
    this.addSql(`create index "accounts_status_created" on "accounts" ("status", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "accounts_status_created", "accounts_created", "accounts_email_trgm";`);
  }
}
