import { Migration } from '@mikro-orm/migrations';

/**
 * A booking keeps the UTC offset its `scheduled_at` was written with, so e-mails and pages show the time as the client
 * gave it, beside UTC (D29). Bookings made before this knew no offset and show UTC.
 */
export class Migration20261124170100_booking_scheduled_offset extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "interpretation_bookings" add column "scheduled_offset_minutes" smallint not null default 0;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "interpretation_bookings" drop column "scheduled_offset_minutes";`);
  }
}
