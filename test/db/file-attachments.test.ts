import { CheckConstraintViolationException, ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { isReferenceViolation } from '../../src/domain/files/reference-violation.queries';
import { FileAttachment } from '../../src/domain/files/file-attachment.entity';
import { StoredFile } from '../../src/domain/files/file.entity';
import { Order } from '../../src/domain/orders/order.entity';
import { Quote } from '../../src/domain/quotes/quote.entity';
import { newId } from '../../src/domain/shared/ids';
import type { Account } from '../../src/domain/identity/account.entity';
import { openQueryDatabase, type QueryDatabase } from '../helpers/query-database';
import { insertAccount, insertAttachment, insertFile, insertOrder, insertQuote } from '../helpers/rows';

let db: QueryDatabase;
let account: Account;
beforeAll(async () => {
  db = await openQueryDatabase();
  account = await insertAccount(db.em());
});
afterAll(() => db.close());

describe('the owner of an attachment', () => {
  it('is exactly one quote or one order that exists', async () => {
    const em = db.em();
    const [file, quote, order] = [
      await insertFile(em, account),
      await insertQuote(em, account),
      await insertOrder(em, account),
    ];
    await expect(insertAttachment(db.em(), file, {} as { quote: Quote })).rejects.toBeInstanceOf(
      CheckConstraintViolationException,
    );
    await expect(insertAttachment(db.em(), file, { quote, order })).rejects.toBeInstanceOf(
      CheckConstraintViolationException,
    );
    await expect(
      insertAttachment(db.em(), file, { quote: db.em().getReference(Quote, newId()) }),
    ).rejects.toBeInstanceOf(ForeignKeyConstraintViolationException);
    await expect(
      insertAttachment(db.em(), file, { order: db.em().getReference(Order, newId()) }),
    ).rejects.toBeInstanceOf(ForeignKeyConstraintViolationException);
  });

  it('takes a file once, and the same file again for another owner', async () => {
    const em = db.em();
    const [file, quote, order] = [
      await insertFile(em, account),
      await insertQuote(em, account),
      await insertOrder(em, account),
    ];
    await insertAttachment(db.em(), file, { quote });
    await insertAttachment(db.em(), file, { order });
    await insertAttachment(db.em(), file, { quote: await insertQuote(db.em(), account) });
    await expect(insertAttachment(db.em(), file, { quote })).rejects.toThrow(
      /file_attachments_quote_id_file_id_unique/,
    );
    await expect(insertAttachment(db.em(), file, { order })).rejects.toThrow(
      /file_attachments_order_id_file_id_unique/,
    );
  });

  it('takes its attachments when it is deleted, and an attached file cannot be', async () => {
    const em = db.em();
    const [file, quote] = [await insertFile(em, account), await insertQuote(em, account)];
    await insertAttachment(em, file, { quote });
    // PostgreSQL 18 (the embedded server) reports a RESTRICT key as 23001, older servers as 23503: both are refusals.
    expect(
      isReferenceViolation(
        await db
          .em()
          .nativeDelete(StoredFile, { id: file.id })
          .catch((error: unknown) => error),
      ),
    ).toBe(true);
    await db.em().nativeDelete(Quote, { id: quote.id });
    expect(await db.em().count(FileAttachment, { file })).toBe(0);
    await db.em().nativeDelete(StoredFile, { id: file.id });
  });

  it('is found and deleted by its owner, each kind apart', async () => {
    const em = db.em();
    const [file, quote, order] = [
      await insertFile(em, account),
      await insertQuote(em, account),
      await insertOrder(em, account),
    ];
    await insertAttachment(em, file, { quote });
    await insertAttachment(em, file, { order });
    expect((await db.em().findOneOrFail(FileAttachment, { file, order: { $ne: null } })).order!.id).toBe(order.id);
    expect(await db.em().nativeDelete(FileAttachment, { file, order })).toBe(1);
    expect((await db.em().find(FileAttachment, { file })).map((attachment) => attachment.quote?.id)).toEqual([
      quote.id,
    ]);
  });
});

describe('the indexes of attachments', () => {
  /** The plan PostgreSQL makes for `text` when a table scan is the last resort (these tables are tiny). */
  const plan = async (text: string) =>
    db.em().transactional(async (em) => {
      await em.getConnection().execute('SET LOCAL enable_seqscan = off', [], 'run', em.getTransactionContext());
      const rows = await em
        .getConnection()
        .execute<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${text}`, [], 'all', em.getTransactionContext());
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });

  it("serve an order's files, a quote's, and a file's owners", async () => {
    const id = newId();
    expect(await plan(`SELECT file_id FROM file_attachments WHERE order_id = '${id}'`)).toMatch(
      /file_attachments_order_id_file_id_unique/,
    );
    expect(await plan(`SELECT file_id FROM file_attachments WHERE quote_id = '${id}'`)).toMatch(
      /file_attachments_quote_id_file_id_unique/,
    );
    expect(await plan(`SELECT order_id FROM file_attachments WHERE file_id = '${id}'`)).toMatch(
      /file_attachments_file_id_index/,
    );
  });
});
