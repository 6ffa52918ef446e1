import { Client } from 'pg';
import {
  allIntents,
  clearIntents,
  declareIntent,
  fulfilIntent,
  keysOfFiles,
  type AutocommitConnection,
} from '../../../src/domain/files/storage-intents.queries';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';
import { insertAccount, insertFile } from '../../helpers/rows';

let db: QueryDatabase;
let client: Client;
/** A connection of its own, outside the ORM's pool, as a process's claim has. */
let own: AutocommitConnection;
beforeAll(async () => {
  db = await openQueryDatabase();
  client = new Client({ connectionString: db.url });
  await client.connect();
  own = { execute: async (sql, params) => void (await client.query(sql, params)) };
});
afterAll(async () => {
  await client.end();
  await db.close();
});

it('declares an intent at once, whatever happens to the transaction that then writes its row', async () => {
  await expect(
    db.em().transactional(async () => {
      await declareIntent(own, 'key-1', 7);
      throw new Error('the upload failed');
    }),
  ).rejects.toThrow('the upload failed');
  expect(await allIntents(db.em())).toEqual([{ storageKey: 'key-1', processId: 7 }]);
});

it("fulfils an intent with the transaction that writes the key's row: gone at its commit, kept if it rolls back", async () => {
  await declareIntent(own, 'key-2', 7);
  await expect(
    db.em().transactional(async (em) => {
      await fulfilIntent(em, 'key-2');
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect((await allIntents(db.em())).map((intent) => intent.storageKey)).toContain('key-2');
  await db.em().transactional((em) => fulfilIntent(em, 'key-2'));
  expect((await allIntents(db.em())).map((intent) => intent.storageKey)).not.toContain('key-2');
});

it('clears the intents of the keys given, however many', async () => {
  const keys = Array.from({ length: 1001 }, (_, i) => `many-${i}`);
  for (const key of keys) await declareIntent(own, key, 8);
  await clearIntents(db.em(), [...keys, 'key-1']);
  expect(await allIntents(db.em())).toEqual([]);
});

it('answers which of the keys given a file row claims, however many', async () => {
  const account = await insertAccount(db.em());
  const files = [await insertFile(db.em(), account), await insertFile(db.em(), account)];
  const asked = [...Array.from({ length: 1500 }, (_, i) => `nobody-${i}`), files[1].storageKey, files[0].storageKey];
  expect(await keysOfFiles(db.em(), asked)).toEqual(new Set([files[0].storageKey, files[1].storageKey]));
  expect(await keysOfFiles(db.em(), [])).toEqual(new Set());
});
