import { Migration } from '@mikro-orm/migrations';

/**
 * Who placed an order's legal hold (docs/decisions.md D33): one the desk placed (a subpoena, a court's order) is
 * released by staff only, never by the client it may protect against. Holds placed before are the client's or the
 * desk's alike; they read as the client's, as they behaved until now.
 */
export class Migration20261213000000_legal_hold_by_staff extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" add column "legal_hold_by_staff" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop column "legal_hold_by_staff";`);
  }
}
