import { Migration } from '@mikro-orm/migrations';

/**
 * An attachment's owner becomes a real foreign key, `quote_id` or `order_id` (exactly one), cascading with its quote
 * or order, in place of the unchecked `owner_type` and `owner_id`. An attachment whose owner is already gone (nothing
 * kept them together before) names nothing and is dropped, so its file can be deleted again.
 */
export class Migration20261125110000_file_attachment_owners extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "file_attachments" add column "quote_id" uuid null, add column "order_id" uuid null;`);
    this.addSql(`update "file_attachments" a set
      "quote_id" = case when a."owner_type" = 'quote' and exists (select 1 from "quotes" q where q."id" = a."owner_id") then a."owner_id" end,
      "order_id" = case when a."owner_type" = 'order' and exists (select 1 from "orders" o where o."id" = a."owner_id") then a."owner_id" end;`);
    this.addSql(`delete from "file_attachments" where "quote_id" is null and "order_id" is null;`);

    this.addSql(
      `alter table "file_attachments" drop constraint "file_attachments_file_id_owner_type_owner_id_unique";`,
    );
    this.addSql(`drop index "file_attachments_owner_id_owner_type_index";`);
    this.addSql(`alter table "file_attachments" drop column "owner_type", drop column "owner_id";`);

    this.addSql(
      `alter table "file_attachments" add constraint "file_attachments_quote_id_foreign" foreign key ("quote_id") references "quotes" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "file_attachments" add constraint "file_attachments_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "file_attachments_file_id_index" on "file_attachments" ("file_id");`);
    this.addSql(
      `alter table "file_attachments" add constraint "file_attachments_quote_id_file_id_unique" unique ("quote_id", "file_id");`,
    );
    this.addSql(
      `alter table "file_attachments" add constraint "file_attachments_order_id_file_id_unique" unique ("order_id", "file_id");`,
    );
    this.addSql(
      `alter table "file_attachments" add constraint file_attachments_one_owner_check check(num_nonnulls("quote_id", "order_id") = 1);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "file_attachments" add column "owner_type" text check ("owner_type" in ('quote', 'order')) null, add column "owner_id" uuid null;`,
    );
    this.addSql(
      `update "file_attachments" set "owner_type" = case when "quote_id" is not null then 'quote' else 'order' end, "owner_id" = coalesce("quote_id", "order_id");`,
    );
    this.addSql(
      `alter table "file_attachments" alter column "owner_type" set not null, alter column "owner_id" set not null;`,
    );

    this.addSql(`alter table "file_attachments" drop constraint "file_attachments_quote_id_foreign";`);
    this.addSql(`alter table "file_attachments" drop constraint "file_attachments_order_id_foreign";`);
    this.addSql(`drop index "file_attachments_file_id_index";`);
    this.addSql(`alter table "file_attachments" drop constraint "file_attachments_quote_id_file_id_unique";`);
    this.addSql(`alter table "file_attachments" drop constraint "file_attachments_order_id_file_id_unique";`);
    this.addSql(`alter table "file_attachments" drop constraint file_attachments_one_owner_check;`);
    this.addSql(`alter table "file_attachments" drop column "quote_id", drop column "order_id";`);

    this.addSql(
      `alter table "file_attachments" add constraint "file_attachments_file_id_owner_type_owner_id_unique" unique ("file_id", "owner_type", "owner_id");`,
    );
    this.addSql(
      `create index "file_attachments_owner_id_owner_type_index" on "file_attachments" ("owner_id", "owner_type");`,
    );
  }
}
