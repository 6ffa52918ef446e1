import type { Request, RequestHandler, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { processRequest } from 'graphql-upload-minimal';
import { decodedBody } from '../http/decoded-body';
import { MalformedMultipartError } from '../rest/multipart';

/**
 * graphql-upload's Express middleware, reading a compressed body decoded as the REST door does (D25): one that does
 * not decompress is 400 `Malformed request body.`. The library's own answer to a form it cannot read at all (a 500,
 * "couldn't find any files or JSON") is a client's malformed body, answered 400 as on REST (D2).
 */
export function graphqlUploads(maxFileBytes: number): RequestHandler {
  const options = { maxFileSize: maxFileBytes + 1, maxFiles: 1 };
  /** The operations of a form, read from the request itself, or from its decoded body failing as that does. */
  const operationsOf = (req: Request, res: Response): Promise<unknown> => {
    const body = decodedBody(req, maxFileBytes);
    if (body === req) return processRequest(req, res, options);
    return Promise.race([
      processRequest(Object.assign(body, { headers: req.headers }) as unknown as IncomingMessage, res, options),
      new Promise<never>((_resolve, reject) => body.once('error', reject)),
    ]);
  };
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    Promise.resolve()
      .then(() => operationsOf(req, res))
      .then(
        (operations) => {
          req.body = operations;
          next();
        },
        (error: { status?: number }) =>
          next(error.status !== undefined && error.status >= 500 ? new MalformedMultipartError() : error),
      );
  };
}
