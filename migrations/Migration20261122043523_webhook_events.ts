import { Migration } from '@mikro-orm/migrations';

export class Migration20261122043523_webhook_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhook_events" ("id" uuid not null, "provider" varchar(20) not null, "event_id" varchar(100) not null, "event_type" varchar(100) not null, "received_at" timestamptz not null, constraint "webhook_events_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_provider_event_id_unique" unique ("provider", "event_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_events" cascade;`);
  }
}
