import { Migration } from '@mikro-orm/migrations';

/** D11: the documents a translation engine holds for an order, so that a rerun of the job resumes them. */
export class Migration20261124121138_translation_engine_requests extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "translation_engine_requests" ("id" uuid not null, "order_id" uuid not null, "source_id" uuid not null, "engine" varchar(20) not null, "reference" text not null, "created_at" timestamptz not null, constraint "translation_engine_requests_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "translation_engine_requests" add constraint "translation_engine_requests_order_id_source_id_unique" unique ("order_id", "source_id");`,
    );

    this.addSql(
      `alter table "translation_engine_requests" add constraint "translation_engine_requests_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "translation_engine_requests" add constraint "translation_engine_requests_source_id_foreign" foreign key ("source_id") references "files" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "translation_engine_requests" cascade;`);
  }
}
