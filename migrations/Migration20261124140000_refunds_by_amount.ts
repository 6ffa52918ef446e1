import { Migration } from '@mikro-orm/migrations';

/**
 * D26: refunds are counted by amount, each once by the provider's refund id (a refund in part leaves the payment
 * captured), a refund the provider refuses for good has a state of its own, and the books cannot refund more than
 * was captured. Refunds made before are carried over as one refund each, of the amount then recorded.
 */
export class Migration20261124140000_refunds_by_amount extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "payment_refunds" ("id" uuid not null, "payment_id" uuid not null, "provider_refund_id" varchar(100) null, "amount_cents" int not null, "created_at" timestamptz not null, constraint "payment_refunds_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "payment_refunds" add constraint "payment_refunds_payment_id_provider_refund_id_unique" unique ("payment_id", "provider_refund_id");`,
    );
    this.addSql(
      `alter table "payment_refunds" add constraint "payment_refunds_payment_id_foreign" foreign key ("payment_id") references "payments" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `insert into "payment_refunds" ("id", "payment_id", "amount_cents", "created_at") select gen_random_uuid(), "id", "refunded_cents", coalesce("refunded_at", "updated_at") from "payments" where "refunded_cents" > 0;`,
    );
    this.addSql(`alter table "payments" drop constraint if exists "payments_status_check";`);
    this.addSql(
      `alter table "payments" add constraint "payments_status_check" check("status" in ('created', 'capturing', 'captured', 'refunding', 'refunded', 'refund_refused', 'voided'));`,
    );
    this.addSql(`alter table "payments" add column "refund_refusal" text null;`);
    this.addSql(
      `alter table "payments" add constraint "payments_refunded_within_captured_check" check("refunded_cents" >= 0 and "refunded_cents" <= "captured_cents");`,
    );
    this.addSql(`create index "payments_capture_id_index" on "payments" ("capture_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "payments_capture_id_index";`);
    this.addSql(`alter table "payments" drop constraint if exists "payments_refunded_within_captured_check";`);
    this.addSql(`alter table "payments" drop column "refund_refusal";`);
    this.addSql(`alter table "payments" drop constraint if exists "payments_status_check";`);
    // A refused refund is still owed as far as the older states can say.
    this.addSql(`update "payments" set "status" = 'refunding' where "status" = 'refund_refused';`);
    this.addSql(
      `alter table "payments" add constraint "payments_status_check" check("status" in ('created', 'capturing', 'captured', 'refunding', 'refunded', 'voided'));`,
    );
    this.addSql(`drop table if exists "payment_refunds" cascade;`);
  }
}
