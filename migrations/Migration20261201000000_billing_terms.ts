import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts on terms (D31): an account's billing terms, credit limit and whether a purchase order is required; the
 * purchase order of a quote, carried to its order.
 */
export class Migration20261201000000_billing_terms extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "accounts" add column "billing_terms" text check ("billing_terms" in ('CHECKOUT', 'NET_15', 'NET_30')) not null default 'CHECKOUT', add column "credit_limit_cents" int not null default 0, add column "purchase_order_required" boolean not null default false;`,
    );
    this.addSql(`alter table "quotes" add column "purchase_order" varchar(64) null;`);
    this.addSql(`alter table "orders" add column "purchase_order" varchar(64) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop column "purchase_order";`);
    this.addSql(`alter table "quotes" drop column "purchase_order";`);
    this.addSql(
      `alter table "accounts" drop column "billing_terms", drop column "credit_limit_cents", drop column "purchase_order_required";`,
    );
  }
}
