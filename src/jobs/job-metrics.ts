import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** How many jobs of a queue wait (due, deferred or waiting for a retry) and how many run, across all processes. */
export interface QueueDepth {
  name: string;
  queuedCount: number;
  activeCount: number;
}

/**
 * The job side of `/metrics` (D37): the runs of this process's workers, timed and their failures counted, and every
 * queue's depth, read when scraped. The metrics belong to no registry until `registerOn`: a worker serves them on
 * WORKER_PORT, an HTTP process beside its request metrics.
 */
export class JobMetrics {
  private readonly duration = new Histogram({
    name: 'job_duration_seconds',
    help: 'Job runs in this process by queue (periodic tasks included), failed runs included',
    labelNames: ['queue'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
    registers: [],
  });
  private readonly failures = new Counter({
    name: 'job_failures_total',
    help: 'Job runs in this process that failed, by queue (each failed try of a retried job counts)',
    labelNames: ['queue'] as const,
    registers: [],
  });
  private readonly depth: Gauge<'queue' | 'state'>;

  constructor(readDepths: () => Promise<QueueDepth[]>) {
    this.depth = new Gauge({
      name: 'job_queue_depth',
      help: 'Jobs of each queue across all processes: queued (due, deferred or waiting for a retry) or active (running)',
      labelNames: ['queue', 'state'] as const,
      registers: [],
      async collect() {
        for (const queue of await readDepths()) {
          this.set({ queue: queue.name, state: 'queued' }, queue.queuedCount);
          this.set({ queue: queue.name, state: 'active' }, queue.activeCount);
        }
      },
    });
  }

  registerOn(registry: Registry): void {
    for (const metric of [this.duration, this.failures, this.depth]) registry.registerMetric(metric);
  }

  /** Runs one job of `queue`, timed; a run that throws is counted as failed and rethrown. */
  async timed(queue: string, run: () => Promise<void>): Promise<void> {
    const end = this.duration.startTimer({ queue });
    try {
      await run();
    } catch (error) {
      this.failures.inc({ queue });
      throw error;
    } finally {
      end();
    }
  }
}
