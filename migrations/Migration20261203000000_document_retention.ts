import { Migration } from '@mikro-orm/migrations';

/**
 * Keeping and deleting client documents (docs/decisions.md, D33): each account's retention period, an order's legal
 * hold and when its documents fall due or were deleted, and a file's deletion (its reason, then when its bytes went).
 */
export class Migration20261203000000_document_retention extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "accounts" add column "retention_days" int null default 90;`);
    this.addSql(
      `alter table "accounts" add constraint "accounts_retention_days_check" check ("retention_days" >= 1 and "retention_days" <= 3650);`,
    );
    this.addSql(`alter table "orders" add column "legal_hold" boolean not null default false,
      add column "legal_hold_reason" varchar(500) null,
      add column "documents_expire_at" timestamptz null,
      add column "documents_deleted_at" timestamptz null;`);
    // The daily deletion walks only the orders whose documents are due, earliest first: an order leaves the index when
    // its documents are deleted, held or kept, so the index holds about one retention period of finished orders.
    this.addSql(
      `create index "orders_documents_expiry" on "orders" ("documents_expire_at", "id") where "documents_expire_at" is not null;`,
    );
    // Finished orders of existing accounts fall due from their completion or cancellation.
    this
      .addSql(`update "orders" o set "documents_expire_at" = coalesce(o."completed_at", o."cancelled_at") + interval '90 days'
      where o."status" in ('completed', 'cancelled');`);
    this.addSql(`alter table "files" add column "purge_reason" varchar(20) null,
      add column "purged_at" timestamptz null;`);
    // Deletions decided whose bytes are not yet all gone, taken up again until they are.
    this.addSql(
      `create index "files_purge_unfinished" on "files" ("id") where "purge_reason" is not null and "purged_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "files_purge_unfinished";`);
    this.addSql(`alter table "files" drop column "purge_reason", drop column "purged_at";`);
    this.addSql(`drop index "orders_documents_expiry";`);
    this.addSql(`alter table "orders" drop column "legal_hold", drop column "legal_hold_reason",
      drop column "documents_expire_at", drop column "documents_deleted_at";`);
    this.addSql(`alter table "accounts" drop constraint "accounts_retention_days_check";`);
    this.addSql(`alter table "accounts" drop column "retention_days";`);
  }
}
