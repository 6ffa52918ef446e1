import { Migration } from '@mikro-orm/migrations';

/** The published rate card (D7). Later changes go through updateRate, never through this file. */
export class Migration20261122031900_seed_rate_card extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`insert into "service_rates" ("service_type", "unit", "unit_price_cents", "currency", "position", "updated_at") values
      ('certified', 'page', 990, 'USD', 1, now()),
      ('standard', 'word', 1, 'USD', 2, now());`);
    this
      .addSql(`insert into "addons" ("code", "name", "pricing_type", "price_cents", "currency", "position", "updated_at") values
      ('notarization', 'Notarization', 'flat', 0, 'USD', 1, now()),
      ('hard_copy', 'Mailed hard copy', 'per_copy', 1495, 'USD', 2, now()),
      ('rush_2h', 'Rush delivery (1-2 hours)', 'flat', 3995, 'USD', 3, now());`);
    this
      .addSql(`insert into "interpretation_rates" ("mode", "unit_price_cents", "minimum_hours", "currency", "position", "updated_at") values
      ('on_site', 12500, 2, 'USD', 1, now()),
      ('video_remote', 8500, 2, 'USD', 2, now()),
      ('sight_translation', 9500, 2, 'USD', 3, now()),
      ('asl', 11000, 2, 'USD', 4, now()),
      ('ai_conference', 3500, 2, 'USD', 5, now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "interpretation_rates";`);
    this.addSql(`delete from "addons";`);
    this.addSql(`delete from "service_rates";`);
  }
}
