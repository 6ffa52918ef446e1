import { randomUUID } from 'node:crypto';
import { CreateQuoteDocument } from '../graphql/generated';
import { docx, words } from '../helpers/documents';
import { uploadFile, waitForAnalysis } from '../helpers/files';
import { createApprovedAccount, createStaffToken, type TestAccount } from '../helpers/fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Many quotes naming the same files at the same instant (D8, D26): on both doors, with and without an
 * Idempotency-Key, and while the files' background analysis is finishing. Every request gets a clear answer (201,
 * or 409 for a key whose first request is still running), never a 500, and every quote holds its files.
 */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 5);
const AT_ONCE = 6;

interface Answer {
  door: 'rest' | 'graphql';
  status: number;
  quoteId?: string;
  body: unknown;
}

describe.each([
  ['analysed files', true],
  ['files still being analysed', false],
])('concurrent quotes for the same %s', (_, analysedFirst) => {
  let t: TestApp;
  let alice: TestAccount;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await createApprovedAccount(t, await createStaffToken(t));
  });
  afterAll(() => t.close());

  /** Fresh files each round, so that a round without analysis races the job that is analysing them. */
  const filesOfRound = async (round: number): Promise<string[]> => {
    const ids: string[] = [];
    for (const size of [300, 700]) {
      const { id } = await uploadFile(
        t,
        alice.key,
        await docx({ paragraphs: [words(size + round)] }),
        `r${round}.docx`,
      );
      if (analysedFirst) await waitForAnalysis(t, alice.key, id);
      ids.push(id);
    }
    return ids;
  };

  const restQuote = async (fileIds: string[], idempotencyKey?: string): Promise<Answer> => {
    const test = t.rest
      .raw()
      .post('/api/v1/quotes')
      .set('Authorization', `Bearer ${alice.key}`)
      .send({ source_language: 'de', target_language: 'en', service_type: 'standard', file_ids: fileIds });
    const res = await (idempotencyKey ? test.set('Idempotency-Key', idempotencyKey) : test);
    return { door: 'rest', status: res.status, quoteId: res.body?.data?.id, body: res.body };
  };

  const graphqlQuote = async (fileIds: string[]): Promise<Answer> => {
    const res = await t.gql(
      CreateQuoteDocument,
      { input: { sourceLanguage: 'de', targetLanguage: 'en', serviceType: 'STANDARD', fileIds } },
      alice.key,
    );
    // GraphQL answers 200 either way: a quote is the door's 201, an error keeps its body for the failure message.
    const quoteId = res.data?.createQuote.id;
    return { door: 'graphql', status: quoteId ? 201 : res.status, quoteId, body: res.errors };
  };

  const attachedQuotes = async (fileId: string): Promise<string[]> =>
    (
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`SELECT quote_id FROM file_attachments WHERE file_id = ? AND quote_id IS NOT NULL`, [fileId])
    ).map((row) => row.quote_id as string);

  it(`answers every request, both doors, ${AT_ONCE} at once, with and without keys (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [first, second] = await filesOfRound(round);
      const sharedKey = randomUUID();
      const answers = await Promise.all([
        // The same files in either order, one file alone, and the same key several times.
        ...Array.from({ length: AT_ONCE }, (_, i) => restQuote(i % 2 ? [first, second] : [second, first])),
        restQuote([first]),
        ...Array.from({ length: 3 }, () => restQuote([first, second], sharedKey)),
        restQuote([first, second], randomUUID()),
        ...Array.from({ length: AT_ONCE }, (_, i) => graphqlQuote(i % 2 ? [first] : [first, second])),
      ]);
      const unexpected = answers.filter((answer) => answer.status !== 201 && answer.status !== 409);
      expect(unexpected).toEqual([]);

      // The key's requests made one quote: each 201 among them is it, replayed; a 409 only while it ran.
      const keyed = answers.slice(AT_ONCE + 1, AT_ONCE + 4);
      const keyedQuotes = new Set(keyed.filter((answer) => answer.status === 201).map((answer) => answer.quoteId));
      expect(keyedQuotes.size).toBe(1);
      const refusedByKey = answers.filter((answer) => answer.status === 409);
      expect(refusedByKey.every((answer) => keyed.includes(answer))).toBe(true);

      const created = new Set(answers.map((answer) => answer.quoteId).filter(Boolean));
      expect(created.size).toBe(answers.length - keyed.length + 1);
      // Every quote holds the files it named, each once.
      const onFirst = await attachedQuotes(first);
      expect(new Set(onFirst).size).toBe(onFirst.length);
      expect(new Set(onFirst)).toEqual(created);
      expect((await attachedQuotes(second)).length).toBe(created.size - 1 - AT_ONCE / 2);
      // And the counts the quotes priced are the analysed ones.
      const file = (await t.rest.get(`/api/v1/files/${first}`, alice.key).expect(200)).body.data;
      expect(file.analysis_status).toBe('counted');
      expect(file.word_count).toBe(300 + round);
    }
  });
});
