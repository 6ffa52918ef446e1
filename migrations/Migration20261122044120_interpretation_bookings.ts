import { Migration } from '@mikro-orm/migrations';

export class Migration20261122044120_interpretation_bookings extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "interpretation_bookings" ("id" uuid not null, "number" varchar(40) not null, "account_id" uuid not null, "status" text check ("status" in ('requested', 'awaiting_payment', 'confirmed', 'completed', 'on_hold', 'cancelled')) not null default 'requested', "held_from" text check ("held_from" in ('requested', 'awaiting_payment', 'confirmed', 'completed', 'on_hold', 'cancelled')) null, "hold_reason" varchar(500) null, "source_language" varchar(20) not null, "target_language" varchar(20) not null, "mode" text check ("mode" in ('on_site', 'video_remote', 'sight_translation', 'asl', 'ai_conference')) not null, "setting" text check ("setting" in ('deposition', 'court', 'arbitration', 'meeting', 'conference', 'other')) not null default 'other', "scheduled_at" timestamptz not null, "duration_hundredths" int not null, "billable_hundredths" int not null, "unit_price_cents" int not null, "total_cents" int not null, "currency" varchar(3) not null, "location" varchar(500) null, "video_platform_notes" text null, "reference" varchar(255) null, "interpreter_name" varchar(255) null, "payment_id" uuid null, "completed_at" timestamptz null, "cancelled_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "interpretation_bookings_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "interpretation_bookings" add constraint "interpretation_bookings_number_unique" unique ("number");`,
    );
    this.addSql(
      `alter table "interpretation_bookings" add constraint "interpretation_bookings_payment_id_unique" unique ("payment_id");`,
    );
    this.addSql(
      `create index "interpretation_bookings_status_scheduled_at_index" on "interpretation_bookings" ("status", "scheduled_at");`,
    );
    this.addSql(
      `create index "interpretation_bookings_account_id_created_at_index" on "interpretation_bookings" ("account_id", "created_at");`,
    );

    this.addSql(
      `alter table "interpretation_bookings" add constraint "interpretation_bookings_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "interpretation_bookings" add constraint "interpretation_bookings_payment_id_foreign" foreign key ("payment_id") references "payments" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "interpretation_bookings" cascade;`);
  }
}
