import { accountByKeyHashStatement, readAccountRowByKeyHash } from '../../../src/db/queries/account-by-key';
import { Account, AccountStatus } from '../../../src/domain/accounts/account.entity';
import { hashToken } from '../../../src/domain/shared/tokens';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount } from '../../helpers/rows';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

it('names every stored column of the account, so that the row hydrates a whole entity', () => {
  expect(accountByKeyHashStatement(db.em()).sql).toMatchSnapshot();
});

it('finds the account of a key hash as the entity path does, and nothing for an unknown hash', async () => {
  const keyHash = hashToken('ltk_test_key');
  const account = await insertAccount(db.em(), {
    apiKeyHash: keyHash,
    apiKeyLast4: '_key',
    status: AccountStatus.SUSPENDED,
    suspendedAt: new Date(),
  });
  const em = db.em();
  const row = await readAccountRowByKeyHash(em, keyHash);
  expect(em.map(Account, row!)).toEqual(await db.em().findOneOrFail(Account, { id: account.id }));
  expect(await readAccountRowByKeyHash(db.em(), hashToken('ltk_test_other'))).toBeUndefined();
});
