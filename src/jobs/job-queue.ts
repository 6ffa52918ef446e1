import type { EntityManager } from '@mikro-orm/core';
import PgBoss from 'pg-boss';
import type { Logger } from '../api/http/logger';

/** Every queue the service uses, with its retry policy. */
export const QUEUES = {
  analyseFile: { name: 'analyse-file', retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 },
  /** Queued when an order is paid. A worker that dies mid-job frees it when it expires: then it runs again, safely. */
  translateOrder: { name: 'translate-order', retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 1800 },
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES]['name'];

/** Where a job is in its retries: a handler can act differently on its last try. */
export interface JobAttempt {
  retryCount: number;
  retryLimit: number;
}

export type JobHandler<T> = (data: T, attempt: JobAttempt) => Promise<void>;

/**
 * The PostgreSQL-backed queue (pg-boss) in the service's own database. Jobs are enqueued inside the caller's
 * transaction, so a job exists exactly when the change that asked for it commits.
 */
export class JobQueue {
  /** The workers this process runs, by queue, so a job queued here can wake them (see wake). */
  private readonly workerIds = new Map<QueueName, string[]>();

  private constructor(
    private readonly boss: PgBoss,
    private readonly logger: Logger,
    private readonly pollingIntervalSeconds: number,
  ) {}

  static async start(connectionString: string, logger: Logger, pollingIntervalSeconds: number): Promise<JobQueue> {
    const boss = new PgBoss({ connectionString, schema: 'pgboss', max: 4, supervise: true, schedule: false });
    boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
    await boss.start();
    for (const queue of Object.values(QUEUES)) {
      const { name, ...policy } = queue;
      await boss.createQueue(name, { name, policy: 'standard', ...policy });
    }
    return new JobQueue(boss, logger, pollingIntervalSeconds);
  }

  /** Adds a job in the transaction `em` is part of; higher priority is taken first (rush orders). */
  async enqueue(em: EntityManager, name: QueueName, data: object, options: { priority?: number } = {}): Promise<void> {
    await this.boss.send(name, data, { db: transactionExecutor(em), priority: options.priority ?? 0 });
  }

  /** Runs jobs of `name` in this process, one at a time; a handler that throws is retried with backoff. */
  async work<T extends object>(name: QueueName, handler: JobHandler<T>): Promise<void> {
    const id = await this.boss.work<T>(name, { pollingIntervalSeconds: this.pollingIntervalSeconds, batchSize: 1, includeMetadata: true, priority: true }, async ([job]) => {
      try {
        await handler(job.data, { retryCount: job.retryCount, retryLimit: job.retryLimit });
      } catch (error) {
        this.logger.warn({ err: error, job: name, job_id: job.id }, 'job failed; it will be retried');
        throw error;
      }
    });
    this.workerIds.set(name, [...(this.workerIds.get(name) ?? []), id]);
  }

  /**
   * Tells this process's idle workers of `name` to look for work now instead of at their next poll: for a job
   * just committed whose result a client is waiting for. Workers in other processes still find it by polling.
   */
  wake(name: QueueName): void {
    for (const id of this.workerIds.get(name) ?? []) this.boss.notifyWorker(id);
  }

  /** Waits for running jobs to finish, then stops (graceful shutdown). */
  stop(): Promise<void> {
    return this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
  }
}

/**
 * pg-boss writes with `$1..$n` placeholders; MikroORM's connection (knex) binds `?`. Each `$n` becomes a `?`
 * with its value, in order of appearance, so repeated and out-of-order placeholders bind correctly.
 */
function transactionExecutor(em: EntityManager) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const bindings: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_match, index: string) => {
        bindings.push(values[Number(index) - 1]);
        return '?';
      });
      const rows = await em.getConnection().execute(sql, bindings as never[], 'all', em.getTransactionContext());
      return { rows };
    },
  };
}
