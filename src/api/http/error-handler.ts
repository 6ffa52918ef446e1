import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  ForbiddenError,
  GoneError,
  NotFoundError,
  ProviderUnavailableError,
  TooManyAttemptsError,
  UnauthenticatedError,
  ValidationError,
} from '../../shared/errors';
import type { Logger } from '../../shared/logger';

/** Unknown paths: the same 404 body as a missing resource (D2). */
export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ message: 'Not found.' });
};

/** body-parser's errors carry a `type` and an HTTP status. */
interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
  message?: string;
}

/**
 * The one place domain errors become HTTP answers (D2). Anything unexpected is logged with the request id
 * and answered as a bare 500: never a stack trace, never a table name.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof ValidationError) {
      res.status(422).json({ message: error.message, errors: error.errors });
    } else if (error instanceof NotFoundError) {
      res.status(404).json({ message: error.message });
    } else if (error instanceof GoneError) {
      res.status(410).json({ message: error.message });
    } else if (error instanceof UnauthenticatedError) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json({ message: error.message });
    } else if (error instanceof ForbiddenError) {
      res.status(403).json({ message: error.message });
    } else if (error instanceof ProviderUnavailableError) {
      logger.warn({ request_id: req.ctx?.requestId, err: error.cause }, error.message);
      res.status(503).set('Retry-After', String(error.retryAfterSeconds)).json({ message: error.message });
    } else if (error instanceof TooManyAttemptsError) {
      res.status(429).set('Retry-After', String(error.state.resetInSeconds)).json({ message: error.message });
    } else if (isBodyParserError(error, 'entity.parse.failed')) {
      res.status(400).json({ message: 'Malformed JSON body.' });
    } else if (isBodyParserError(error, 'entity.decode.failed')) {
      res.status(400).json({ message: 'Malformed request body.' });
    } else if (isBodyParserError(error, 'entity.too.large')) {
      res.status(413).json({ message: 'The request body is too large.' });
    } else if (isClientHttpError(error)) {
      res.status(error.status!).json({ message: error.message });
    } else {
      const requestId = req.ctx?.requestId ?? String(res.getHeader('X-Request-Id') ?? '');
      logger.error({ request_id: requestId, err: error }, 'unhandled error');
      res.status(500).json({ message: 'Server Error.', request_id: requestId });
    }
  };
}

function isBodyParserError(error: unknown, type: string): boolean {
  return typeof error === 'object' && error !== null && (error as BodyParserError).type === type;
}

/** Other 4xx errors raised by Express's own parsers (bad charset, bad encoding): safe to show. */
function isClientHttpError(error: unknown): error is BodyParserError {
  const e = error as BodyParserError;
  return (
    typeof error === 'object' &&
    error !== null &&
    e.expose === true &&
    typeof e.status === 'number' &&
    e.status >= 400 &&
    e.status < 500
  );
}
