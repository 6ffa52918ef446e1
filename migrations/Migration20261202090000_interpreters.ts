import { Migration } from '@mikro-orm/migrations';

/**
 * D32: interpreters as records, the one confirmed for a booking, the hours a session really took and its overtime's
 * checkout. The partial index serves the overlap check and the interpreters' search: one interpreter's bookings that
 * hold their time, probed by a window of starts.
 */
export class Migration20261202090000_interpreters extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "interpreters" ("id" uuid not null, "name" varchar(255) not null, "email" varchar(254) not null, "languages" text[] not null, "modes" text[] not null, "qualifications" text[] not null, "credentials" text null, "active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "interpreters_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "interpreters" add constraint "interpreters_email_unique" unique ("email");`);
    this.addSql(`create index "interpreters_active_name" on "interpreters" ("active", "name", "id");`);
    this.addSql(`create index "interpreters_languages_gin" on "interpreters" using gin ("languages");`);
    this.addSql(
      `alter table "interpretation_bookings" add column "interpreter_id" uuid null, add column "actual_hundredths" int null, add column "overtime_hundredths" int null, add column "overtime_cents" int null, add column "overtime_payment_id" uuid null;`,
    );
    this.addSql(
      `alter table "interpretation_bookings" add constraint "interpretation_bookings_interpreter_id_foreign" foreign key ("interpreter_id") references "interpreters" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "interpretation_bookings" add constraint "interpretation_bookings_overtime_payment_id_foreign" foreign key ("overtime_payment_id") references "payments" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "interpretation_bookings" add constraint "interpretation_bookings_overtime_payment_id_unique" unique ("overtime_payment_id");`,
    );
    this.addSql(
      `create index "interpretation_bookings_interpreter_busy" on "interpretation_bookings" ("interpreter_id", "scheduled_at") where "status" in ('confirmed', 'awaiting_payment');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "interpretation_bookings_interpreter_busy";`);
    this.addSql(
      `alter table "interpretation_bookings" drop constraint "interpretation_bookings_overtime_payment_id_unique", drop constraint "interpretation_bookings_overtime_payment_id_foreign", drop constraint "interpretation_bookings_interpreter_id_foreign";`,
    );
    this.addSql(
      `alter table "interpretation_bookings" drop column "interpreter_id", drop column "actual_hundredths", drop column "overtime_hundredths", drop column "overtime_cents", drop column "overtime_payment_id";`,
    );
    this.addSql(`drop table "interpreters";`);
  }
}
