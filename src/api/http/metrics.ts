import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolUse } from '../../db/orm-driver';
import type { DocumentSandbox } from '../../documents/sandbox/document-sandbox';
import type { JobMetrics } from '../../jobs/job-metrics';

export interface Metrics {
  registry: Registry;
  /** Times the request until its response has been sent, labelled with the route pattern it matched. */
  timeRequest(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * Prometheus metrics on a registry of this app's own (two apps in one process never collide): the process, its
 * database pool, its document sandbox, its jobs and the queues' depth (D37), and its HTTP requests.
 */
export function createMetrics(orm: MikroORM, documents: DocumentSandbox, jobs: JobMetrics): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  jobs.registerOn(registry);
  // Read when scraped: a request waiting for a connection is the first sign of a pool too small for the load.
  new Gauge({
    name: 'db_pool_connections_in_use',
    help: 'Database connections lent out of the pool',
    registers: [registry],
    collect() {
      this.set(poolUse(orm).inUse);
    },
  });
  new Gauge({
    name: 'db_pool_acquires_waiting',
    help: 'Requests and jobs waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(poolUse(orm).waiting);
    },
  });
  // D25: 0 while no document-sandbox child can start (an outage: nothing can be analysed, translated or stamped).
  new Gauge({
    name: 'document_sandbox_up',
    help: 'Whether the document sandbox can start its child processes (1) or not (0)',
    registers: [registry],
    collect() {
      this.set(documents.health().up ? 1 : 0);
    },
  });
  new Counter({
    name: 'document_sandbox_start_failures_total',
    help: 'Document-sandbox children that ended or hung before they were ready',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(documents.health().startFailures);
    },
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const timeRequest = (req: IncomingMessage, res: ServerResponse) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      end({ method: req.method, route: (res as Tagged).locals?.route ?? 'unmatched', status: String(res.statusCode) });
    });
  };
  return { registry, timeRequest };
}

/** Where a response keeps the route pattern it matched: Express's `res.locals`, which is made when absent. */
type Tagged = ServerResponse & { locals?: { route?: string } };

/** Labels the request's metric with `pattern`, for an answer made without Express's router (the polling lane). */
export function tagRouteOf(res: ServerResponse, pattern: string): void {
  ((res as Tagged).locals ??= Object.create(null) as { route?: string }).route = pattern;
}

/**
 * Records the matched route pattern (never the raw path: ids would explode the label set). Taken when the
 * route matches, because Express has reset req.baseUrl by the time an error has left the router.
 */
export const tagRoute =
  (pattern?: string): RequestHandler =>
  (req, res, next) => {
    tagRouteOf(res, pattern ?? `${req.baseUrl}${(req.route as { path: string } | undefined)?.path ?? ''}`);
    next();
  };
