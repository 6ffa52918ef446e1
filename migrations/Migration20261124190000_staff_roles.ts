import { Migration } from '@mikro-orm/migrations';

/** D28: the staff roles are admin, desk (what `staff` was) and translator. */
export class Migration20261124190000_staff_roles extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "staff_users" drop constraint if exists "staff_users_role_check";`);
    this.addSql(`update "staff_users" set "role" = 'desk' where "role" = 'staff';`);
    this.addSql(
      `alter table "staff_users" add constraint "staff_users_role_check" check("role" in ('admin', 'desk', 'translator'));`,
    );
    this.addSql(`alter table "staff_users" alter column "role" set default 'desk';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "staff_users" drop constraint if exists "staff_users_role_check";`);
    // The older roles cannot say what a translator may do: one keeps only the desk's role.
    this.addSql(`update "staff_users" set "role" = 'staff' where "role" in ('desk', 'translator');`);
    this.addSql(
      `alter table "staff_users" add constraint "staff_users_role_check" check("role" in ('staff', 'admin'));`,
    );
    this.addSql(`alter table "staff_users" alter column "role" set default 'staff';`);
  }
}
