import { Migration } from '@mikro-orm/migrations';

/** D22: quotes and orders with hard copies keep where they go; orders keep how they went. */
export class Migration20261122123000_hard_copy_shipping extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "quotes" add column "shipping_address" jsonb null;`);
    this.addSql(
      `alter table "orders" add column "shipping_address" jsonb null, add column "shipment_carrier" varchar(100) null, add column "shipment_tracking_number" varchar(100) null, add column "shipped_at" timestamptz null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "orders" drop column "shipping_address", drop column "shipment_carrier", drop column "shipment_tracking_number", drop column "shipped_at";`,
    );
    this.addSql(`alter table "quotes" drop column "shipping_address";`);
  }
}
