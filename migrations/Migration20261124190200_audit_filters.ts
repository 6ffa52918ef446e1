import { Migration } from '@mikro-orm/migrations';

/** D28: the audit log is read by actor, by action and by a window of time, newest first. */
export class Migration20261124190200_audit_filters extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "audit_entries_actor_id_created_at_index" on "audit_entries" ("actor_id", "created_at");`,
    );
    this.addSql(`create index "audit_entries_action_created_at_index" on "audit_entries" ("action", "created_at");`);
    this.addSql(`create index "audit_entries_created_at_id_index" on "audit_entries" ("created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "audit_entries_created_at_id_index";`);
    this.addSql(`drop index "audit_entries_action_created_at_index";`);
    this.addSql(`drop index "audit_entries_actor_id_created_at_index";`);
  }
}
