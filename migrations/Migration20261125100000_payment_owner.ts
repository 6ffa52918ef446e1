import { Migration } from '@mikro-orm/migrations';

/**
 * A payment names what it pays for (docs/architecture.md, "How a payment flows"): exactly one of an order or a
 * booking. Existing payments are given theirs: the current payment of each order and booking, and a renewed
 * checkout's old payment (D29) by its renewal's audit row, written in the renewal's own transaction: renewal is the
 * only way a payment stops being its owner's current one. The keys are checked at commit, as an order and its first
 * payment are written together, each naming the other.
 */
export class Migration20261125100000_payment_owner extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payments" add column "order_id" uuid null, add column "booking_id" uuid null;`);
    this.addSql(`update "payments" p set "order_id" = o."id" from "orders" o where o."payment_id" = p."id";`);
    this.addSql(
      `update "payments" p set "booking_id" = b."id" from "interpretation_bookings" b where b."payment_id" = p."id";`,
    );
    for (const [column, noun] of [
      ['order_id', 'order'],
      ['booking_id', 'booking'],
    ]) {
      this.addSql(`update "payments" p set "${column}" = a."resource_id"::uuid from "audit_entries" a
        where a."action" = '${noun}.checkout_renewed' and a."details"->>'replaced_payment_id' = p."id"::text and p."order_id" is null and p."booking_id" is null;`);
    }
    this.addSql(
      `alter table "payments" add constraint "payments_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade deferrable initially deferred;`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_booking_id_foreign" foreign key ("booking_id") references "interpretation_bookings" ("id") on update cascade on delete cascade deferrable initially deferred;`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_one_owner_check" check (num_nonnulls("order_id", "booking_id") = 1);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payments" drop constraint "payments_one_owner_check";`);
    this.addSql(`alter table "payments" drop constraint "payments_booking_id_foreign";`);
    this.addSql(`alter table "payments" drop constraint "payments_order_id_foreign";`);
    this.addSql(`alter table "payments" drop column "booking_id", drop column "order_id";`);
  }
}
