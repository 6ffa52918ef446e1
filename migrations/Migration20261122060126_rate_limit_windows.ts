import { Migration } from '@mikro-orm/migrations';

/** D16 counters: unlogged, as losing a minute of counts in a crash is harmless and every request writes here. */
export class Migration20261122060126_rate_limit_windows extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create unlogged table "rate_limit_windows" ("bucket" varchar(100) not null, "started_at" timestamptz not null, "hits" int not null, constraint "rate_limit_windows_pkey" primary key ("bucket"));`,
    );
    this.addSql(`create index "rate_limit_windows_started_at_index" on "rate_limit_windows" ("started_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_limit_windows" cascade;`);
  }
}
