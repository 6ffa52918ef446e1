import { Migration } from '@mikro-orm/migrations';

/** A streamed upload's fingerprint is known only once its body has been read (D9). */
export class Migration20261122055311_idempotency_fingerprint_after_upload extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" alter column "fingerprint" drop not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "idempotency_keys" where "fingerprint" is null;`);
    this.addSql(`alter table "idempotency_keys" alter column "fingerprint" set not null;`);
  }
}
