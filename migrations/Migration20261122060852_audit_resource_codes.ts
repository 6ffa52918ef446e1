import { Migration } from '@mikro-orm/migrations';

/** Audit rows can name a rate card line by its code (`rush_2h`), not only an entity by its uuid. */
export class Migration20261122060852_audit_resource_codes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "audit_entries" alter column "resource_id" type varchar(100) using ("resource_id"::text);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `delete from "audit_entries" where "resource_id" !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';`,
    );
    this.addSql(`alter table "audit_entries" alter column "resource_id" type uuid using ("resource_id"::uuid);`);
  }
}
