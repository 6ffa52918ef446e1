import { Migration } from '@mikro-orm/migrations';

/** Bookings keep the client's redirect_url until staff create the checkout (D9). */
export class Migration20261122120000_booking_redirect_url extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "interpretation_bookings" add column "redirect_url" varchar(2048) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "interpretation_bookings" drop column "redirect_url";`);
  }
}
