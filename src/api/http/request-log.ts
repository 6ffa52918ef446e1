import type { RequestHandler } from 'express';
import type { Logger } from '../../shared/logger';

/** One JSON line per request, written when the response has been sent. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const actor = req.ctx.actor;
      logger.info(
        {
          request_id: req.ctx.requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          duration_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          account_id: actor?.kind === 'account' ? actor.accountId : undefined,
          staff_id: actor?.kind === 'staff' ? actor.staff.id : undefined,
        },
        'request',
      );
    });
    next();
  };
}
