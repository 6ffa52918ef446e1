import { Migration } from '@mikro-orm/migrations';

/**
 * D26: payments get their own states (capturing and refunding record an intent before the provider is called),
 * the money columns that reconcile them, and webhook events are marked when processed, not only received.
 */
export class Migration20261122110000_payment_states extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payments" drop constraint if exists "payments_status_check";`);
    this.addSql(`update "payments" set "status" = 'captured' where "status" = 'completed';`);
    this.addSql(
      `alter table "payments" add constraint "payments_status_check" check ("status" in ('created', 'capturing', 'captured', 'refunding', 'refunded', 'voided'));`,
    );
    this.addSql(
      `alter table "payments" add column "captured_cents" int not null default 0, add column "refunded_cents" int not null default 0, add column "in_flight_since" timestamptz null;`,
    );
    this.addSql(`update "payments" set "captured_cents" = "amount_cents" where "status" in ('captured', 'refunded');`);
    this.addSql(`update "payments" set "refunded_cents" = "amount_cents" where "status" = 'refunded';`);
    this.addSql(`create index "payments_status_in_flight_since_index" on "payments" ("status", "in_flight_since");`);
    this.addSql(`alter table "webhook_events" add column "processed_at" timestamptz null;`);
    this.addSql(`update "webhook_events" set "processed_at" = "received_at";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_events" drop column "processed_at";`);
    this.addSql(`drop index "payments_status_in_flight_since_index";`);
    this.addSql(
      `alter table "payments" drop column "captured_cents", drop column "refunded_cents", drop column "in_flight_since";`,
    );
    this.addSql(`alter table "payments" drop constraint if exists "payments_status_check";`);
    this.addSql(`update "payments" set "status" = 'completed' where "status" = 'captured';`);
    this.addSql(`update "payments" set "status" = 'created' where "status" = 'capturing';`);
    this.addSql(`update "payments" set "status" = 'refunded' where "status" = 'refunding';`);
    this.addSql(
      `alter table "payments" add constraint "payments_status_check" check ("status" in ('created', 'completed', 'voided', 'refunded'));`,
    );
  }
}
