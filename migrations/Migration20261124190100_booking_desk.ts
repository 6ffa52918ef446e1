import { Migration } from '@mikro-orm/migrations';

/** D28: notes on bookings, and the indexes the booking desk's list is served by (soonest first, per account or window). */
export class Migration20261124190100_booking_desk extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "booking_notes" ("id" uuid not null, "booking_id" uuid not null, "author_id" uuid not null, "text" text not null, "created_at" timestamptz not null, constraint "booking_notes_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "booking_notes_booking_id_created_at_index" on "booking_notes" ("booking_id", "created_at");`,
    );
    this.addSql(
      `alter table "booking_notes" add constraint "booking_notes_booking_id_foreign" foreign key ("booking_id") references "interpretation_bookings" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "booking_notes" add constraint "booking_notes_author_id_foreign" foreign key ("author_id") references "staff_users" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `create index "interpretation_bookings_account_id_scheduled_at_index" on "interpretation_bookings" ("account_id", "scheduled_at");`,
    );
    this.addSql(
      `create index "interpretation_bookings_scheduled_at_id_index" on "interpretation_bookings" ("scheduled_at", "id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "interpretation_bookings_scheduled_at_id_index";`);
    this.addSql(`drop index "interpretation_bookings_account_id_scheduled_at_index";`);
    this.addSql(`drop table if exists "booking_notes" cascade;`);
  }
}
