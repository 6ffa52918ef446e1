import type { RequestHandler } from 'express';
import { carriesBody } from '../http/request-body';

/**
 * Refuses a body of a media type the operation does not read with 415 `{message}` (D25), instead of ignoring
 * it and answering as if nothing had been sent.
 */
export function bodyTypes(...types: string[]): RequestHandler {
  const handler: RequestHandler = (req, res, next) => {
    if (!carriesBody(req) || req.is(types)) return next();
    res.status(415).json({ message: `Unsupported media type: send ${types.join(' or ')}.` });
  };
  return Object.assign(handler, { [DECLARES_BODY]: true });
}

const DECLARES_BODY = Symbol('declares its body types');

/** Whether a route's handlers say what bodies they read; those that do not read JSON only. */
export const declaresBody = (handlers: RequestHandler[]): boolean =>
  handlers.some((handler) => DECLARES_BODY in handler);
