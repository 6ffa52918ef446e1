import { Migration } from '@mikro-orm/migrations';

/**
 * Invoices of accounts on terms (D31): each names the payments on account it bills and the refunds it credits; an
 * index per list (the partner's, newest first by status; the staff's overdue look-up) and one for the work not yet
 * invoiced.
 */
export class Migration20261201000100_invoices extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "invoices" ("id" uuid not null, "number" varchar(20) not null, "account_id" uuid not null, "status" text check ("status" in ('open', 'paid', 'void')) not null default 'open', "period_start" timestamptz not null, "issued_at" timestamptz not null, "due_at" timestamptz not null, "lines" jsonb not null, "credits" jsonb not null, "total_cents" int not null, "paid_cents" int not null default 0, "carried_credit_cents" int not null default 0, "currency" varchar(3) not null, "paid_at" timestamptz null, "void_reason" varchar(500) null, "overdue_notified_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "invoices_pkey" primary key ("id"), constraint "invoices_paid_within_total_check" check ("paid_cents" >= 0 and "paid_cents" <= "total_cents"));`,
    );
    this.addSql(`alter table "invoices" add constraint "invoices_number_unique" unique ("number");`);
    this.addSql(
      `alter table "invoices" add constraint "invoices_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "invoices_account_issued" on "invoices" ("account_id", "issued_at", "id");`);
    this.addSql(
      `create index "invoices_account_status_issued" on "invoices" ("account_id", "status", "issued_at", "id");`,
    );
    this.addSql(`create index "invoices_status_due" on "invoices" ("status", "due_at", "id");`);
    this.addSql(`alter table "payments" add column "invoice_id" uuid null;`);
    this.addSql(
      `alter table "payments" add constraint "payments_invoice_id_foreign" foreign key ("invoice_id") references "invoices" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`alter table "payment_refunds" add column "invoice_id" uuid null;`);
    this.addSql(
      `alter table "payment_refunds" add constraint "payment_refunds_invoice_id_foreign" foreign key ("invoice_id") references "invoices" ("id") on update cascade on delete set null;`,
    );
    // The work on account not yet invoiced, which the credit check and the monthly close read.
    this.addSql(
      `create index "payments_on_account_uninvoiced" on "payments" ("paid_at") where "provider" = 'account' and "invoice_id" is null;`,
    );
    this.addSql(
      `create table "invoice_counters" ("month" varchar(6) not null, "last" int not null, constraint "invoice_counters_pkey" primary key ("month"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "invoice_counters";`);
    this.addSql(`drop index "payments_on_account_uninvoiced";`);
    this.addSql(`alter table "payment_refunds" drop constraint "payment_refunds_invoice_id_foreign";`);
    this.addSql(`alter table "payment_refunds" drop column "invoice_id";`);
    this.addSql(`alter table "payments" drop constraint "payments_invoice_id_foreign";`);
    this.addSql(`alter table "payments" drop column "invoice_id";`);
    this.addSql(`drop table "invoices";`);
  }
}
