import { Migration } from '@mikro-orm/migrations';

/**
 * The booking desk at scale (docs/architecture.md, "Lists at scale"): its status and account filters with the sort's
 * tie-break in their indexes, and trigram indexes for its search, as the order desk has.
 */
export class Migration20261125140000_booking_desk_at_scale extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "interpretation_bookings_status_scheduled_at_index";`);
    this.addSql(`drop index "interpretation_bookings_account_id_scheduled_at_index";`);
    this.addSql(
      `create index "interpretation_bookings_status_scheduled" on "interpretation_bookings" ("status", "scheduled_at", "id");`,
    );
    this.addSql(
      `create index "interpretation_bookings_account_scheduled" on "interpretation_bookings" ("account_id", "scheduled_at", "id");`,
    );
    this.addSql(
      `create index "interpretation_bookings_number_trgm" on "interpretation_bookings" using gin ("number" gin_trgm_ops);`,
    );
    this.addSql(
      `create index "interpretation_bookings_reference_trgm" on "interpretation_bookings" using gin ("reference" gin_trgm_ops);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `drop index "interpretation_bookings_reference_trgm", "interpretation_bookings_number_trgm", "interpretation_bookings_account_scheduled", "interpretation_bookings_status_scheduled";`,
    );
    this.addSql(
      `create index "interpretation_bookings_account_id_scheduled_at_index" on "interpretation_bookings" ("account_id", "scheduled_at");`,
    );
    this.addSql(
      `create index "interpretation_bookings_status_scheduled_at_index" on "interpretation_bookings" ("status", "scheduled_at");`,
    );
  }
}
