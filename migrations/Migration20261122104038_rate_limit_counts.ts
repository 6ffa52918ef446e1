import { Migration } from '@mikro-orm/migrations';

/**
 * D24: budgets are counted in each process's memory; the processes share them through a periodic batch into
 * their own rows here instead of an upsert per request. Unlogged: a crash loses at most a minute of counts.
 */
export class Migration20261122104038_rate_limit_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create unlogged table "rate_limit_counts" ("bucket" varchar(100) not null, "window_start" timestamptz not null, "process_id" uuid not null, "hits" int not null, constraint "rate_limit_counts_pkey" primary key ("bucket", "window_start", "process_id"));`,
    );
    this.addSql(`create index "rate_limit_counts_window_start_index" on "rate_limit_counts" ("window_start");`);

    this.addSql(`drop table if exists "rate_limit_windows" cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `create unlogged table "rate_limit_windows" ("bucket" varchar(100) not null, "started_at" timestamptz not null, "hits" int not null, constraint "rate_limit_windows_pkey" primary key ("bucket"));`,
    );
    this.addSql(`create index "rate_limit_windows_started_at_index" on "rate_limit_windows" ("started_at");`);

    this.addSql(`drop table if exists "rate_limit_counts" cascade;`);
  }
}
