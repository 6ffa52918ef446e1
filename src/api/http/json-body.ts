import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler } from 'express';
import { bodyError, isDecompressionFailure, undecodableBody } from './decoded-body';
import { announcesBody } from './request-body';

/**
 * How deep a JSON body may nest (D25). Nothing the API reads goes past a handful of levels; deeper is refused before
 * anything walks it recursively (the idempotency fingerprint, validation), which would exhaust the stack.
 */
export const JSON_MAX_DEPTH = 64;

/** The media types read on the short path: JSON in UTF-8, said plainly (D25). */
const PLAIN_JSON = /^application\/json(?:[ \t]*;[ \t]*charset=("?)utf-8\1)?$/i;

/** A request as the body readers see it, from Express or from the GraphQL lane ahead of it (D23). */
type BodyRequest = IncomingMessage & { body?: unknown; rawBody?: Buffer };

/** Where a body read ahead of Express keeps its outcome: nothing, or the refusal Express's error handler answers. */
const READ_AHEAD = Symbol('jsonBodyReadAhead');
type ReadAhead = BodyRequest & { [READ_AHEAD]?: Error };

export interface JsonBody {
  /** Express's middleware: reads the body, or takes the outcome of the reading done ahead of it. */
  middleware: RequestHandler;
  /** Whether the request's body is read on the short path (below): plain UTF-8 JSON, said plainly, not encoded. */
  readsDirectly(req: IncomingMessage): boolean;
  /**
   * Reads such a body ahead of Express (the GraphQL lane, D23): true once `body` is set; false when it is refused,
   * the refusal kept for Express, whose middleware then hands it to the error handler as if it had read it.
   */
  readAhead(req: IncomingMessage): Promise<boolean>;
}

/**
 * Every JSON body, with body-parser's rules and error `type`s (so the error handler answers both paths alike, D2):
 * 413 over the limit, 400 for malformed JSON or a top-level value that is not an object or an array, 415 for a
 * charset other than UTF-8. The raw bytes are kept on `req.rawBody`, because webhook signatures cover the body
 * as sent. A body is read once, whoever asks first.
 *
 * A plain `application/json` body in UTF-8 with no content coding, which is nearly every request, is read here
 * directly: body-parser's general machinery (raw-body, iconv-lite, type-is) cost each GraphQL request about
 * 30 µs of CPU (docs/architecture.md "Middleware order"). Any other body (another charset, gzip, an unusual
 * spelling of the type) goes to `express.json`, which decodes or refuses it as before.
 */
export function jsonBody(limitBytes: number): JsonBody {
  const general = express.json({
    limit: limitBytes,
    verify: (req, _res, raw) => void ((req as Request).rawBody = raw),
  });
  /** What every reading ends with: a body that does not decompress, or one nested too deep, is refused. */
  const checked =
    (req: BodyRequest, next: (error?: unknown) => void): NextFunction =>
    (error?: unknown) =>
      next(
        isDecompressionFailure(error)
          ? undecodableBody()
          : (error ??
              (nestsTooDeep(req.body)
                ? bodyError(400, 'entity.too.deep', `The JSON body nests deeper than ${JSON_MAX_DEPTH} levels.`)
                : undefined)),
      );
  const readsDirectly = (req: IncomingMessage): boolean => {
    const { 'content-type': type, 'content-encoding': encoding } = req.headers;
    return (
      announcesBody(req) &&
      type !== undefined &&
      PLAIN_JSON.test(type) &&
      (encoding === undefined || encoding.toLowerCase() === 'identity')
    );
  };
  return {
    readsDirectly,
    middleware: (req, res, next) => {
      if (Object.hasOwn(req, READ_AHEAD)) return next((req as ReadAhead)[READ_AHEAD]);
      // As with body-parser, `body` is always set, to undefined when there is none (a multipart GraphQL request's was
      // set by the upload middleware before this one).
      if (!Object.hasOwn(req, 'body')) req.body = undefined;
      // A request without a body (every poll) has nothing to read, whatever its headers say.
      if (!announcesBody(req)) return next();
      if (!readsDirectly(req)) return general(req, res, checked(req, next));
      readJson(req, limitBytes, checked(req, next));
    },
    readAhead: (req: ReadAhead) =>
      new Promise((resolve) =>
        readJson(
          req,
          limitBytes,
          checked(req, (error) => {
            req[READ_AHEAD] = error as Error | undefined;
            resolve(error === undefined);
          }),
        ),
      ),
  };
}

/** Walked with a stack of its own, so a body nested a million levels deep is measured, not recursed into. */
function nestsTooDeep(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: [object, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    for (const child of Object.values(node) as unknown[]) {
      if (typeof child !== 'object' || child === null) continue;
      if (depth + 1 > JSON_MAX_DEPTH) return true;
      pending.push([child, depth + 1]);
    }
  }
  return false;
}

function readJson(req: BodyRequest, limitBytes: number, next: NextFunction): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  // The stream's events run in the HTTP parser's async context: the rest of the request goes on in its own, as
  // body-parser's does, so that anything keyed on AsyncLocalStorage (tracing, loggers) still finds the request.
  // (`AsyncResource.bind` would do the same at about 14 µs a call: it defines properties on the bound function.)
  const request = new AsyncResource('JsonBody');
  const settle = (error?: Error): void => {
    if (settled) return;
    settled = true;
    request.runInAsyncScope(next, undefined, error);
  };
  // Past the limit the rest is read and dropped, then refused: the connection stays usable, as with body-parser.
  let tooLarge = Number(req.headers['content-length']) > limitBytes;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limitBytes) tooLarge = true;
    if (!tooLarge) chunks.push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) return settle(bodyError(413, 'entity.too.large', 'request entity too large'));
    const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
    req.rawBody = raw;
    try {
      req.body = parseJson(raw);
    } catch {
      return settle(bodyError(400, 'entity.parse.failed', 'malformed JSON'));
    }
    settle();
  });
  req.on('error', () => settle(bodyError(400, 'request.aborted', 'request aborted')));
  req.on('close', () => {
    if (!req.complete) settle(bodyError(400, 'request.aborted', 'request aborted'));
  });
}

/** body-parser's strict JSON: an empty body is `{}`; otherwise an object or an array, a leading BOM allowed. */
function parseJson(raw: Buffer): unknown {
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  if (text.length === 0) return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null) throw new SyntaxError('not an object or an array');
  return value;
}
