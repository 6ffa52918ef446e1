import { Migration } from '@mikro-orm/migrations';

/**
 * Free revisions of completed orders (D30): a revision is an order linked to the one it revises, made from the same
 * quote (so a quote may now have several orders), with the client's reason; the client's reference files are
 * attachments marked as such; at most one revision of an order is open at a time (a partial unique index backs the
 * check made under the original's lock); a certificate names the revision's certificate that superseded it.
 */
export class Migration20261128090000_revisions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" drop constraint "orders_quote_id_unique";`);
    this.addSql(`create index "orders_quote_id_index" on "orders" ("quote_id");`);
    this.addSql(`alter table "orders" add column "revision_of_id" uuid null, add column "revision_reason" text null;`);
    this.addSql(
      `alter table "orders" add constraint "orders_revision_of_id_foreign" foreign key ("revision_of_id") references "orders" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`create index "orders_revision_of_id_index" on "orders" ("revision_of_id");`);
    this.addSql(
      `create unique index "orders_one_open_revision" on "orders" ("revision_of_id") where "status" not in ('completed', 'cancelled');`,
    );
    this.addSql(`alter table "file_attachments" add column "reference" boolean not null default false;`);
    this.addSql(`alter table "certificates" add column "superseded_by" varchar(19) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "certificates" drop column "superseded_by";`);
    this.addSql(`alter table "file_attachments" drop column "reference";`);
    this.addSql(`drop index "orders_one_open_revision";`);
    this.addSql(`alter table "orders" drop constraint "orders_revision_of_id_foreign";`);
    this.addSql(`alter table "orders" drop column "revision_of_id", drop column "revision_reason";`);
    this.addSql(`drop index "orders_quote_id_index";`);
    this.addSql(`alter table "orders" add constraint "orders_quote_id_unique" unique ("quote_id");`);
  }
}
