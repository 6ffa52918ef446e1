import { Migration } from '@mikro-orm/migrations';

/** D20: a completion records its intent before it stamps, draws, signs and stores with no lock held; one per order. */
export class Migration20261125120000_pending_certificates extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "pending_certificates" ("code" varchar(19) not null, "order_id" uuid not null, "process_id" int not null, "started_at" timestamptz not null, constraint "pending_certificates_pkey" primary key ("code"));`,
    );
    this.addSql(
      `alter table "pending_certificates" add constraint "pending_certificates_order_id_unique" unique ("order_id");`,
    );
    this.addSql(
      `alter table "pending_certificates" add constraint "pending_certificates_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pending_certificates" cascade;`);
  }
}
