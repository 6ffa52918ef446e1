import type { IncomingMessage } from 'node:http';

/**
 * Whether a request announces a body: type-is's rule, which body-parser follows, a declared length (zero included)
 * or a chunked body. What the body readers and the polling lane go by.
 */
export const announcesBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || !Number.isNaN(parseInt(req.headers['content-length'] ?? '', 10));

/**
 * Whether a request carries bytes to read: a zero-length body is no body, so that `POST /quotes/{id}/convert` may be
 * sent bare, with or without `Content-Length: 0`. What the media-type check goes by.
 */
export const carriesBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
