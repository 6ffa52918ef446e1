import type { RequestListener } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import express, { type Express } from 'express';
import proxyAddr from 'proxy-addr';
import { graphqlLane, GRAPHQL_PATH } from './api/graphql/graphql-lane';
import { createGraphQLDoor } from './api/graphql/server';
import { graphqlUploads } from './api/graphql/uploads';
import { errorHandler, notFoundHandler } from './api/http/error-handler';
import { jsonBody } from './api/http/json-body';
import type { Logger } from './shared/logger';
import { browserAccess, securityHeaders } from './api/http/browser-access';
import { createMetrics, tagRoute } from './api/http/metrics';
import { requestStart } from './api/http/request-start';
import { docsRoutes } from './api/docs/docs.routes';
import { safePath } from './api/http/safe-path';
import { opsRoutes } from './api/ops/ops.routes';
import { pollingLane } from './api/rest/polling-lane';
import { polledRoutes, V1_PATH, v1Router } from './api/rest/v1.router';
import { verifyRoutes } from './api/verify/verify.routes';
import { addressPageRoutes } from './api/shipping/address-page.routes';
import { sandboxMailRoutes } from './api/web/sandbox-mail.routes';
import { webAppRoutes } from './api/web/web-apps.routes';
import { DatabaseLeases } from './domain/rate-limits/rate-limit-leases';
import type { JobMetrics } from './jobs/job-metrics';
import type { Services } from './services';

/** The largest JSON body read (D25); larger ones are answered 413. */
const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppDeps {
  orm: MikroORM;
  services: Services;
  logger: Logger;
  /** The jobs' side of `/metrics` (the queue's `metrics`). */
  jobMetrics: JobMetrics;
  /**
   * Share the rate-limit budgets through the database with every other process on it (D24, D37), as the service
   * always does; a test app left without counts in memory alone.
   */
  shareRateLimits?: boolean;
}

export interface App {
  express: Express;
  /** What the HTTP server runs: the polling lane, the GraphQL lane, then Express (D23). */
  listener: RequestListener;
  /** Stops what the app itself started (Apollo); the HTTP server and the database belong to the caller. */
  close(): Promise<void>;
}

/** One Express app, two doors onto the same services: REST v1 at /api/v1 and GraphQL at /graphql (D1). */
export async function createApp({ orm, services, logger, jobMetrics, shareRateLimits }: AppDeps): Promise<App> {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'simple');
  // REST answers its own strong ETags (D23); Express's would hash every other body, GraphQL's included, for nothing.
  app.set('etag', false);

  const metrics = createMetrics(orm, services.documents, jobMetrics);
  const started = requestStart(orm, metrics, logger);
  app.use(started.middleware, safePath, ...browserAccess(services.config));
  // Multipart GraphQL (uploads) is parsed before JSON; the file streams are read by the resolver, not here.
  app.use(GRAPHQL_PATH, graphqlUploads(services.config.uploadMaxBytes));
  const body = jsonBody(JSON_BODY_LIMIT_BYTES);
  app.use(body.middleware);

  // The two doors first: their requests (polls among them, D23) should not walk the routes of the pages and probes.
  // The docs come before GraphQL: a browser's GET /graphql is their explorer page.
  app.use(V1_PATH, v1Router(services));
  app.use(docsRoutes(services.config.company.name));
  const graphql = await createGraphQLDoor(services, logger, (req) =>
    proxyAddr(req, app.get('trust proxy fn') as (address: string, hop: number) => boolean),
  );
  app.use(GRAPHQL_PATH, tagRoute(GRAPHQL_PATH), graphql.middleware);
  app.use(opsRoutes(orm, metrics, services.config, services.documents));
  app.use(verifyRoutes(services));
  app.use(addressPageRoutes(services));
  app.use(webAppRoutes(services.config));
  app.use(sandboxMailRoutes(services));

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  if (shareRateLimits) services.rateLimits.shareThrough(new DatabaseLeases(orm, logger));
  const headers = securityHeaders(services.config);
  return {
    express: app,
    listener: pollingLane(
      { services, routes: polledRoutes(services), start: started.start, headers },
      graphqlLane({ start: started.start, headers, body, door: graphql, logger }, app),
    ),
    close: async () => {
      await graphql.stop();
    },
  };
}
