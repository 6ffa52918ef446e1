import { Migration } from '@mikro-orm/migrations';

/**
 * D29: files show their physical pages and the pages with no text layer beside the billing pages, and quotes and
 * orders carry both totals. Files analysed before stay null (unknown) until analysed again.
 */
export class Migration20261124160000_scanned_pages extends Migration {
  override async up(): Promise<void> {
    for (const table of ['files', 'quotes', 'orders']) {
      this.addSql(`alter table "${table}" add column "document_pages" int null, add column "scanned_pages" int null;`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['files', 'quotes', 'orders']) {
      this.addSql(`alter table "${table}" drop column "document_pages", drop column "scanned_pages";`);
    }
  }
}
