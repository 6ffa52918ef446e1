import type { RequestHandler } from 'express';
import { carriesBody } from '../http/request-body';

/**
 * Refuses a body of a media type the operation does not read with 415 `{message}` (D25), instead of ignoring
 * it and answering as if nothing had been sent.
 */
export function bodyTypes(...types: string[]): RequestHandler {
  return Object.assign(refuseOthers(types, `send ${types.join(' or ')}`), { [DECLARES_BODY]: true });
}

/**
 * REST's first check, before any operation is matched: a body of a type no operation reads. Its advice names what
 * operations read, JSON, and uploads' multipart (the HTML forms' own type is for this service's pages), so that an
 * integrator is not sent to a type the operation then refuses too.
 */
export const readBodyTypes = (): RequestHandler =>
  refuseOthers(
    ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'],
    'send application/json (multipart/form-data to upload a file)',
  );

const refuseOthers =
  (types: string[], advice: string): RequestHandler =>
  (req, res, next) => {
    if (!carriesBody(req) || req.is(types)) return next();
    res.status(415).json({ message: `Unsupported media type: ${advice}.` });
  };

const DECLARES_BODY = Symbol('declares its body types');

/** Whether a route's handlers say what bodies they read; those that do not read JSON only. */
export const declaresBody = (handlers: RequestHandler[]): boolean =>
  handlers.some((handler) => DECLARES_BODY in handler);
