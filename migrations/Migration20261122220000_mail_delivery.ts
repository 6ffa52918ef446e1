import { Migration } from '@mikro-orm/migrations';

/** D17: production mail is delivered from the outbox after the commit; each message keeps how its delivery went. */
export class Migration20261122220000_mail_delivery extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "sent_emails" add column "delivered_at" timestamptz null, add column "sending_since" timestamptz null, add column "failed_at" timestamptz null, add column "failure" text null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "sent_emails" drop column "delivered_at", drop column "sending_since", drop column "failed_at", drop column "failure";`,
    );
  }
}
