import busboy from 'busboy';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import { finished } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { decodedBody } from '../http/decoded-body';

export interface MultipartUpload<T> {
  /** What `receive` made of the part named `fileField`; undefined when there was none. */
  file?: T;
  filename?: string;
  fields: Record<string, string>;
}

/** A body that is not well-formed multipart: answered 400 like malformed JSON. A compressed body is decoded first. */
export class MalformedMultipartError extends Error {
  readonly status = 400;
  readonly expose = true;
  constructor() {
    super('Malformed multipart body.');
  }
}

const digests = new WeakMap<Request, string>();

/**
 * Once a request's multipart body has been read through: the SHA-256 of what it held, whatever its boundary
 * (every text field, and every file part's field name, file name and content). Two sends of the same form
 * digest alike: Idempotency-Key compares them (D9).
 */
export const multipartDigest = (req: Request): string | undefined => digests.get(req);

const drain = async (stream: Readable) => void (await finished(stream.resume()));

/**
 * Streams a multipart body: the one file part goes straight to `receive` (never buffered here), small text
 * fields are collected, any other file part is drained and ignored. `maxFileBytes` lets busboy stop early.
 * Without `fileField`, every file part is drained: the body is only read for its digest.
 */
export function readMultipart<T>(
  req: Request,
  maxFileBytes: number,
  fileField?: string,
  receive?: (stream: Readable) => Promise<T>,
): Promise<MultipartUpload<T>> {
  if (!req.is('multipart/form-data')) return Promise.resolve({ fields: {} });
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fileSize: maxFileBytes + 1, fields: 20, fieldSize: 4096, parts: 25 },
      });
    } catch {
      return reject(new MalformedMultipartError());
    }
    let body: Readable;
    try {
      body = decodedBody(req, maxFileBytes);
    } catch (error) {
      return reject(error);
    }
    // A body that does not decompress fails the parser (and the part being received) with its own answer.
    let undecodable: Error | undefined;
    body.on('error', (error) => parser.destroy((undecodable = error)));
    const fields: Record<string, string> = {};
    const parts: Promise<[string, string | undefined, string]>[] = [];
    let received: Promise<T> | undefined;
    let filename: string | undefined;
    parser.on('file', (name, stream, info) => {
      const hash = createHash('sha256');
      const hashed = stream.pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            done(null, chunk);
          },
        }),
      );
      stream.on('error', (error) => hashed.destroy(error));
      const part = finished(hashed).then((): [string, string | undefined, string] => [
        name,
        info.filename,
        hash.digest('hex'),
      ]);
      part.catch(() => undefined); // awaited on close; a failure before then must not go unhandled
      parts.push(part);
      if (name !== fileField || received || !receive) return void drain(hashed).catch(() => undefined);
      filename = info.filename;
      received = receive(hashed);
      received.catch(() => drain(hashed).catch(() => undefined));
    });
    parser.on('field', (name, value) => (fields[name] = value));
    // A client gone mid-body ends nothing by itself: fail the parser, and with it the part being received, whose
    // temporary file is then removed (D25).
    req.once('close', () => req.readableEnded || parser.destroy(new Error('The request was aborted.')));
    parser.on('error', () => reject(undecodable ?? new MalformedMultipartError()));
    parser.on('close', () => {
      Promise.all([received, Promise.all(parts)]).then(([file, files]) => {
        const digest = createHash('sha256')
          .update(JSON.stringify({ fields: Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)), files }))
          .digest('hex');
        digests.set(req, digest);
        resolve({ file, filename, fields });
      }, reject);
    });
    body.pipe(parser);
  });
}
