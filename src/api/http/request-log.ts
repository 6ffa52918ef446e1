import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import type { Logger } from '../../shared/logger';

/** One JSON line for the request, written when its response has been sent. */
export function logWhenSent(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const { ctx, originalUrl } = req as Partial<Request> & Pick<Request, 'ctx'>;
    const actor = ctx.actor;
    logger.info(
      {
        request_id: ctx.requestId,
        method: req.method,
        // Express's own path, or the one asked for when Express never saw the request (the polling lane, D23).
        path: (originalUrl ?? req.url!).split('?')[0],
        status: res.statusCode,
        duration_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        account_id: actor?.kind === 'account' ? actor.accountId : undefined,
        staff_id: actor?.kind === 'staff' ? actor.staff.id : undefined,
      },
      'request',
    );
  });
}
