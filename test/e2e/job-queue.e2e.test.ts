import { startTestApp, type TestApp } from '../helpers/test-app';

/** Jobs are enqueued inside the caller's transaction (ARCHITECTURE): they exist exactly when the change commits. */
let t: TestApp;
beforeAll(async () => (t = await startTestApp({ workers: false })));
afterAll(() => t.close());

const jobsFor = async (marker: string) =>
  (await t.orm.em.fork().getConnection().execute(`SELECT name, data FROM pgboss.job WHERE data->>'fileId' = ?`, [marker])) as { name: string; data: object }[];

describe('JobQueue.enqueue', () => {
  it('commits the job with the transaction', async () => {
    await t.orm.em.fork().transactional((em) => t.queue.enqueue(em, 'analyse-file', { fileId: 'committed-1' }));
    expect(await jobsFor('committed-1')).toEqual([{ name: 'analyse-file', data: { fileId: 'committed-1' } }]);
  });

  it('leaves no job when the transaction rolls back', async () => {
    await expect(
      t.orm.em.fork().transactional(async (em) => {
        await t.queue.enqueue(em, 'analyse-file', { fileId: 'rolled-back-1' });
        throw new Error('the change failed after queueing');
      }),
    ).rejects.toThrow('the change failed after queueing');
    expect(await jobsFor('rolled-back-1')).toEqual([]);
  });

  it('binds values containing placeholders and question marks literally', async () => {
    const tricky = "it's $1 ? or ?? :x";
    await t.orm.em.fork().transactional((em) => t.queue.enqueue(em, 'analyse-file', { fileId: tricky }));
    expect(await jobsFor(tricky)).toEqual([{ name: 'analyse-file', data: { fileId: tricky } }]);
  });
});
