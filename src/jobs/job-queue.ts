import type { EntityManager } from '@mikro-orm/core';
import type { PgBoss } from 'pg-boss';
import type { Logger } from '../shared/logger';
import { JobMetrics } from './job-metrics';
import {
  movePgBoss10Jobs,
  PG_BOSS_SCHEMA,
  setAsidePgBoss10,
  transactionExecutor,
  unfinishedJobValues,
} from './pg-boss-driver';

/**
 * Every queue the service uses, with its retry policy. Jobs are safe to run again (D11). A dead letter queue is
 * listed before the queue that names it (it must exist first).
 */
export const QUEUES = {
  analyseFile: { name: 'analyse-file', retryLimit: 3, retryDelay: 5, retryBackoff: true },
  /** A translate-order job the queue failed for good (its worker lost or its time up on the last try): the order is held. */
  translateOrderGivenUp: { name: 'translate-order-given-up', retryLimit: 5, retryDelay: 5, retryBackoff: true },
  /** Queued when an order is paid or released back to processing. */
  translateOrder: {
    name: 'translate-order',
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    deadLetter: 'translate-order-given-up',
  },
  /** Production mail, queued with the change that sent it (D17): a mail server down for 2 to 4 hours is waited out. */
  deliverEmail: { name: 'deliver-email', retryLimit: 8, retryDelay: 30, retryBackoff: true },
  /** Queued with a decided deletion of documents (D33): the bytes go, retried while the storage fails (about a day). */
  purgeFiles: { name: 'purge-files', retryLimit: 12, retryDelay: 60, retryBackoff: true },
} as const;

/**
 * A running job is kept alive by pg-boss's own heartbeat (`heartbeatSeconds`, 30 by default), sent by its worker
 * every half of it: however long the job runs, no other worker takes it while the heartbeat goes on. A worker that
 * dies (SIGKILL, a lost machine) stops it, and pg-boss's monitor (every third of the heartbeat) hands the job to
 * another worker: within about a heartbeat and a third and the first retry delay, well under a minute (D26).
 */
export interface JobQueueOptions {
  pollingIntervalSeconds: number;
  heartbeatSeconds: number;
}

/**
 * The most a job may run before pg-boss gives its attempt up (the most it allows): a bound for a handler that hangs,
 * never reached by a job that makes progress, which the heartbeat keeps alive.
 */
const EXPIRE_IN_SECONDS = 24 * 60 * 60;

/** How often pg-boss's monitor looks for jobs whose heartbeat stopped: a third of the heartbeat, in whole seconds. */
const monitorSeconds = ({ heartbeatSeconds }: JobQueueOptions): number => Math.max(1, Math.floor(heartbeatSeconds / 3));

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES]['name'];

/** Where a job is in its retries: a handler can act differently on its last try. */
export interface JobAttempt {
  retryCount: number;
  retryLimit: number;
}

export type JobHandler<T> = (data: T, attempt: JobAttempt) => Promise<void>;

/** pg-boss's own queues (its schedules' forwarding) are no job type of ours: left out of the depth metrics. */
const PG_BOSS_QUEUE_PREFIX = '__pgboss__';

/**
 * The PostgreSQL-backed queue (pg-boss) in the service's own database. Jobs are enqueued inside the caller's
 * transaction, so a job exists exactly when the change that asked for it commits.
 */
export class JobQueue {
  /** The workers this process runs, by queue, so a job queued here can wake them (see wake). */
  private readonly workerIds = new Map<string, string[]>();
  /** The periodic tasks this process registered (see every). */
  private readonly periodic = new Set<string>();
  readonly metrics = new JobMetrics(async () =>
    (await this.boss.getQueues()).filter((queue) => !queue.name.startsWith(PG_BOSS_QUEUE_PREFIX)),
  );

  private constructor(
    private readonly boss: PgBoss,
    private readonly logger: Logger,
    private readonly options: JobQueueOptions,
  ) {}

  /**
   * Starts pg-boss on the database. `schedules`: this process turns the periodic tasks' schedules into jobs (pg-boss's
   * cron pass, which the processes that run workers take turns at).
   */
  static async start(
    connectionString: string,
    logger: Logger,
    options: JobQueueOptions,
    { schedules }: { schedules: boolean },
  ): Promise<JobQueue> {
    await setAsidePgBoss10(connectionString);
    // pg-boss 12 is an ES module: loaded with import(), which Node and jest's module runner both handle.
    const { PgBoss } = await import('pg-boss');
    const checks = monitorSeconds(options);
    const boss = new PgBoss({
      connectionString,
      schema: PG_BOSS_SCHEMA,
      max: 4,
      supervise: true,
      schedule: schedules,
      superviseIntervalSeconds: checks,
      monitorIntervalSeconds: checks,
    });
    boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
    await boss.start();
    for (const { name, ...policy } of Object.values(QUEUES)) await createQueue(boss, options, name, 'standard', policy);
    const moved = await movePgBoss10Jobs(
      connectionString,
      boss,
      Object.values(QUEUES).map((queue) => queue.name),
    );
    if (moved > 0) logger.info({ jobs: moved }, 'moved the unfinished jobs of pg-boss 10 into the upgraded queue');
    return new JobQueue(boss, logger, options);
  }

  /** Adds a job in the transaction `em` is part of; higher priority is taken first (rush orders). */
  async enqueue(em: EntityManager, name: QueueName, data: object, options: { priority?: number } = {}): Promise<void> {
    await this.boss.send(name, data, { db: transactionExecutor(em), priority: options.priority ?? 0 });
  }

  /**
   * Runs jobs of `name` in this process, one at a time, with pg-boss's heartbeat going while the handler runs; a
   * handler that throws is retried with backoff.
   */
  work<T extends object>(name: QueueName, handler: JobHandler<T>): Promise<void> {
    return this.workOn(name, handler);
  }

  private async workOn<T extends object>(name: string, handler: JobHandler<T>): Promise<void> {
    const options = {
      pollingIntervalSeconds: this.options.pollingIntervalSeconds,
      batchSize: 1,
      includeMetadata: true,
    } as const;
    const id = await this.boss.work<T, void, typeof options>(name, options, async ([job]) => {
      try {
        await this.metrics.timed(name, () =>
          handler(job.data, { retryCount: job.retryCount, retryLimit: job.retryLimit }),
        );
      } catch (error) {
        const retried = job.retryCount < job.retryLimit;
        this.logger.warn(
          { err: error, job: name, job_id: job.id },
          retried ? 'job failed; it will be retried' : 'job failed; no retries left',
        );
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

  /** Of `values`, those that a job of `name` not yet finished (waiting, due for a retry, or running) has as `data[key]`. */
  unfinished(name: QueueName, key: string, values: string[]): Promise<Set<string>> {
    return unfinishedJobValues(this.boss, name, key, values);
  }

  /**
   * Runs `task` once per tick of `cron` (minutes at the finest: pg-boss files a tick's job under its minute) across
   * every process on the database, in whichever worker takes the tick's job (D37). The queue `name` is stately: a
   * tick that comes while the last one's job still waits or runs adds none. A run that fails is logged and left to
   * the next tick, never retried.
   */
  async every(name: string, cron: string, task: () => Promise<unknown>): Promise<void> {
    await createQueue(this.boss, this.options, name, 'stately', { retryLimit: 0 });
    await this.boss.schedule(name, cron);
    this.periodic.add(name);
    await this.workOn(name, async () => void (await task()));
  }

  /** Removes the schedules of periodic tasks this process did not register: tasks a newer release has dropped. */
  async forgetOtherSchedules(): Promise<void> {
    for (const { name, key } of await this.boss.getSchedules())
      if (!this.periodic.has(name)) await this.boss.unschedule(name, key);
  }

  /** Waits for running jobs to finish, then stops (graceful shutdown). */
  stop(): Promise<void> {
    return this.boss.stop({ graceful: true, timeout: 30_000 });
  }
}

/**
 * Creates queue `name`, or, as createQueue leaves an existing queue as it was, applies this process's heartbeat and
 * retry policy to it.
 */
async function createQueue(
  boss: PgBoss,
  options: JobQueueOptions,
  name: string,
  policy: 'standard' | 'stately',
  retries: { retryLimit: number; retryDelay?: number; retryBackoff?: boolean; deadLetter?: string },
): Promise<void> {
  const settings = { ...retries, expireInSeconds: EXPIRE_IN_SECONDS, heartbeatSeconds: options.heartbeatSeconds };
  await boss.createQueue(name, { policy, ...settings });
  await boss.updateQueue(name, settings);
}
