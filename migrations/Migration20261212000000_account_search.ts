import { Migration } from '@mikro-orm/migrations';

/**
 * The console's account search (docs/decisions.md D34): a trigram index on the e-mail beside the name's, so
 * `accounts(search:)` finds a part of either without reading the table.
 */
export class Migration20261212000000_account_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "accounts_email_trgm" on "accounts" using gin ("email" gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "accounts_email_trgm";`);
  }
}
