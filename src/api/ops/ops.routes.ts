import type { MikroORM } from '@mikro-orm/postgresql';
import { Router } from 'express';
import { checkReadiness } from '../../db/migrations';
import type { AppConfig } from '../../config/app-config';
import type { DocumentSandbox } from '../../documents/sandbox/document-sandbox';
import type { Metrics } from '../http/metrics';
import { route } from '../rest/routing';
import { metricsAccess } from './metrics-access';

/**
 * D15: liveness, readiness (database reachable, migrations applied, document sandbox able to start) and Prometheus
 * metrics (metricsAccess).
 */
export function opsRoutes(orm: MikroORM, metrics: Metrics, config: AppConfig, documents: DocumentSandbox): Router {
  const router = Router();
  route(router, '/healthz', { get: [(_req, res) => void res.json({ status: 'ok' })] });
  route(router, '/readyz', {
    get: [
      async (_req, res) => {
        const checks = await checkReadiness(orm);
        const sandbox = documents.health();
        const ready = checks.database && checks.migrations && sandbox.up;
        res.status(ready ? 200 : 503).json({
          status: ready ? 'ok' : 'unavailable',
          checks: {
            database: checks.database ? 'ok' : 'failing',
            migrations: checks.migrations ? 'ok' : 'pending',
            documents: sandbox.up ? 'ok' : 'failing',
          },
        });
      },
    ],
  });
  route(router, '/metrics', {
    get: [
      metricsAccess(config),
      async (_req, res) => {
        res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
      },
    ],
  });
  return router;
}
