import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestHandler } from 'express';
import type { Ctx } from '../../domain/identity/context';
import type { Logger } from '../../shared/logger';
import type { Metrics } from './metrics';
import { openContext } from './request-context';
import { logWhenSent } from './request-log';

/** Starts a request: its id and context, its metric and its log line. */
export type StartRequest = (req: IncomingMessage, res: ServerResponse) => Ctx;

/**
 * What every request starts with, whichever way it is answered: its id and context (`openContext`), its metric and
 * its log line. Started once: a poll that the polling lane (D23) hands over to Express keeps what the lane
 * started, so its id, its statements and its time are one request's.
 */
export function requestStart(
  orm: MikroORM,
  metrics: Metrics,
  logger: Logger,
): { start: StartRequest; middleware: RequestHandler } {
  const start: StartRequest = (req, res) => {
    if (Object.hasOwn(req, 'ctx')) return (req as IncomingMessage & { ctx: Ctx }).ctx;
    const ctx = openContext(orm, req, res);
    metrics.timeRequest(req, res);
    logWhenSent(logger, req, res);
    return ctx;
  };
  return {
    start,
    middleware: (req, res, next) => {
      start(req, res);
      next();
    },
  };
}
