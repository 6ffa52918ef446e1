import { waitingAnalyses } from '../../../src/domain/files/pending-analyses.queries';
import { AnalysisStatus } from '../../../src/domain/files/file.entity';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertFile } from '../../helpers/rows';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

it("counts the account's other files waiting for analysis, up to the bound", async () => {
  const [account, other] = [await insertAccount(db.em()), await insertAccount(db.em())];
  const uploaded = await insertFile(db.em(), account);
  for (let i = 0; i < 3; i++) await insertFile(db.em(), account);
  await insertFile(db.em(), account, { analysisStatus: AnalysisStatus.COUNTED });
  await insertFile(db.em(), other);
  expect(await waitingAnalyses(db.em(), account.id, uploaded.id, 1000)).toBe(3);
  expect(await waitingAnalyses(db.em(), account.id, uploaded.id, 2)).toBe(2);
  expect(await waitingAnalyses(db.em(), other.id, uploaded.id, 1000)).toBe(1);
});
