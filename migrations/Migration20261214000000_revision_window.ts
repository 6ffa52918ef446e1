import { Migration } from '@mikro-orm/migrations';

/**
 * A revision's free-revision window runs from the first delivery of the work it revises (docs/decisions.md D30), so a
 * chain of revisions never restarts the 30 days: each revision records that moment. Revisions made before take it
 * from the first order of their chain.
 */
export class Migration20261214000000_revision_window extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" add column "revision_window_from" timestamptz null;`);
    this.addSql(`with recursive "chain" ("id", "first_delivery") as (
      select "id", "completed_at" from "orders" where "revision_of_id" is null
        and "id" in (select "revision_of_id" from "orders" where "revision_of_id" is not null)
      union all
      select "o"."id", "c"."first_delivery" from "orders" "o" join "chain" "c" on "o"."revision_of_id" = "c"."id"
    ) update "orders" set "revision_window_from" = "chain"."first_delivery"
      from "chain" where "orders"."id" = "chain"."id" and "orders"."revision_of_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop column "revision_window_from";`);
  }
}
