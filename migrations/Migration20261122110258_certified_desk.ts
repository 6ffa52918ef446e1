import { Migration } from '@mikro-orm/migrations';

/**
 * The certified desk (D19-D21): per-translation reviews, internal order notes, assignment, notarization, issued
 * certificates with their verification codes, and staff profiles (credentials) that can be deactivated.
 */
export class Migration20261122110258_certified_desk extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "order_notes" ("id" uuid not null, "order_id" uuid not null, "author_id" uuid not null, "text" text not null, "created_at" timestamptz not null, constraint "order_notes_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "order_notes_order_id_created_at_index" on "order_notes" ("order_id", "created_at");`);

    this.addSql(
      `create table "notarizations" ("id" uuid not null, "order_id" uuid not null, "notary_name" varchar(255) not null, "commission_number" varchar(100) not null, "jurisdiction" varchar(255) not null, "commission_expires_on" date not null, "notarized_at" timestamptz not null, "recorded_by_id" uuid not null, "recorded_at" timestamptz not null, "scan_id" uuid null, constraint "notarizations_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "notarizations" add constraint "notarizations_order_id_unique" unique ("order_id");`);

    this.addSql(
      `create table "certificates" ("code" varchar(19) not null, "order_id" uuid not null, "file_id" uuid not null, "order_number" varchar(30) not null, "account_name" varchar(255) not null, "source_language" varchar(20) not null, "target_language" varchar(20) not null, "translator" jsonb not null, "notarized" boolean not null, "documents" jsonb not null, "issued_at" timestamptz not null, constraint "certificates_pkey" primary key ("code"));`,
    );
    this.addSql(`alter table "certificates" add constraint "certificates_order_id_unique" unique ("order_id");`);

    this.addSql(
      `create table "translation_reviews" ("file_id" uuid not null, "order_id" uuid not null, "reviewer_id" uuid not null, "kind" text check ("kind" in ('approved', 'replaced')) not null, "reviewed_at" timestamptz not null, constraint "translation_reviews_pkey" primary key ("file_id"));`,
    );
    this.addSql(`create index "translation_reviews_order_id_index" on "translation_reviews" ("order_id");`);

    this.addSql(
      `alter table "order_notes" add constraint "order_notes_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "order_notes" add constraint "order_notes_author_id_foreign" foreign key ("author_id") references "staff_users" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(
      `alter table "notarizations" add constraint "notarizations_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "notarizations" add constraint "notarizations_recorded_by_id_foreign" foreign key ("recorded_by_id") references "staff_users" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "notarizations" add constraint "notarizations_scan_id_foreign" foreign key ("scan_id") references "files" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(
      `alter table "certificates" add constraint "certificates_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "certificates" add constraint "certificates_file_id_foreign" foreign key ("file_id") references "files" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(
      `alter table "translation_reviews" add constraint "translation_reviews_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "translation_reviews" add constraint "translation_reviews_reviewer_id_foreign" foreign key ("reviewer_id") references "staff_users" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(
      `alter table "staff_users" add column "credentials" varchar(255) null, add column "deactivated_at" timestamptz null;`,
    );

    this.addSql(`alter table "orders" add column "assignee_id" uuid null;`);
    this.addSql(
      `alter table "orders" add constraint "orders_assignee_id_foreign" foreign key ("assignee_id") references "staff_users" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`create index "orders_assignee_id_index" on "orders" ("assignee_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_notes" cascade;`);

    this.addSql(`drop table if exists "notarizations" cascade;`);

    this.addSql(`drop table if exists "certificates" cascade;`);

    this.addSql(`drop table if exists "translation_reviews" cascade;`);

    this.addSql(`alter table "orders" drop constraint "orders_assignee_id_foreign";`);

    this.addSql(`drop index "orders_assignee_id_index";`);
    this.addSql(`alter table "orders" drop column "assignee_id";`);

    this.addSql(`alter table "staff_users" drop column "credentials", drop column "deactivated_at";`);
  }
}
