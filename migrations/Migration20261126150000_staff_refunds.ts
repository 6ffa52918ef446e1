import { Migration } from '@mikro-orm/migrations';

/**
 * D30: refunds staff make without cancelling, each with its reason and the provider's answer; a payment holds back
 * what is asked and not yet answered, so two refunds at once never ask for more than was captured.
 */
export class Migration20261126150000_staff_refunds extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "staff_refunds" ("id" uuid not null, "payment_id" uuid not null, "amount_cents" int not null, "reason" varchar(500) not null, "status" text check ("status" in ('pending', 'made', 'refused')) not null default 'pending', "provider_refund_id" varchar(100) null, "refusal" text null, "in_flight_since" timestamptz null, "created_at" timestamptz not null, constraint "staff_refunds_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "staff_refunds_status_in_flight_since_index" on "staff_refunds" ("status", "in_flight_since");`,
    );
    this.addSql(
      `alter table "staff_refunds" add constraint "staff_refunds_payment_id_foreign" foreign key ("payment_id") references "payments" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`alter table "payments" add column "refund_pending_cents" int not null default 0;`);
    this.addSql(
      `alter table "payments" add constraint "payments_refund_pending_check" check("refund_pending_cents" >= 0 and "refund_pending_cents" <= "captured_cents");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payments" drop constraint if exists "payments_refund_pending_check";`);
    this.addSql(`alter table "payments" drop column "refund_pending_cents";`);
    this.addSql(`drop table if exists "staff_refunds" cascade;`);
  }
}
