import type { MikroORM } from '@mikro-orm/postgresql';
import { Router } from 'express';
import { checkReadiness } from '../../db/migrations';
import type { Metrics } from '../http/metrics';
import { route } from '../rest/routing';

/** D15: liveness, readiness (database reachable, migrations applied) and Prometheus metrics. */
export function opsRoutes(orm: MikroORM, metrics: Metrics): Router {
  const router = Router();
  route(router, '/healthz', { get: [(_req, res) => void res.json({ status: 'ok' })] });
  route(router, '/readyz', {
    get: [
      async (_req, res) => {
        const checks = await checkReadiness(orm);
        const ready = checks.database && checks.migrations;
        res.status(ready ? 200 : 503).json({
          status: ready ? 'ok' : 'unavailable',
          checks: { database: checks.database ? 'ok' : 'failing', migrations: checks.migrations ? 'ok' : 'pending' },
        });
      },
    ],
  });
  route(router, '/metrics', {
    get: [
      async (_req, res) => {
        res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
      },
    ],
  });
  return router;
}
