import type { MikroORM } from '@mikro-orm/postgresql';
import express, { type Express } from 'express';
import type { JobMetrics } from '../../jobs/job-metrics';
import type { Logger } from '../../shared/logger';
import type { Services } from '../../services';
import { errorHandler, notFoundHandler } from '../http/error-handler';
import { createMetrics } from '../http/metrics';
import { opsRoutes } from './ops.routes';

/**
 * What a `worker` process serves on WORKER_PORT (D37): the HTTP port's `/healthz`, `/readyz` and `/metrics` (the
 * same checks and access rule, the jobs' metrics with them), and 404 for anything else.
 */
export function workerStatus(orm: MikroORM, services: Services, jobMetrics: JobMetrics, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  const metrics = createMetrics(orm, services.documents, jobMetrics);
  app.use(opsRoutes(orm, metrics, services.config, services.documents));
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
