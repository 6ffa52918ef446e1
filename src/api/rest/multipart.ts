import busboy from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';

export interface MultipartUpload<T> {
  /** What `receive` made of the part named `fileField`; undefined when there was none. */
  file?: T;
  filename?: string;
  fields: Record<string, string>;
}

/** A body that is not well-formed multipart: answered 400 like malformed JSON. */
export class MalformedMultipartError extends Error {
  readonly status = 400;
  readonly expose = true;
  constructor() {
    super('Malformed multipart body.');
  }
}

/**
 * Streams a multipart body: the one file part goes straight to `receive` (never buffered here), small text
 * fields are collected, any other file part is drained and ignored. `maxFileBytes` lets busboy stop early.
 */
export function readMultipart<T>(
  req: Request,
  fileField: string,
  maxFileBytes: number,
  receive: (stream: Readable) => Promise<T>,
): Promise<MultipartUpload<T>> {
  if (!req.is('multipart/form-data')) return Promise.resolve({ fields: {} });
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: maxFileBytes + 1, fields: 20, fieldSize: 4096, parts: 25 } });
    } catch {
      return reject(new MalformedMultipartError());
    }
    const fields: Record<string, string> = {};
    let received: Promise<T> | undefined;
    let filename: string | undefined;
    parser.on('file', (name, stream, info) => {
      if (name !== fileField || received) return void stream.resume();
      filename = info.filename;
      received = receive(stream);
      received.catch(() => stream.resume());
    });
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('error', () => reject(new MalformedMultipartError()));
    parser.on('close', () => {
      if (!received) return resolve({ fields });
      received.then((file) => resolve({ file, filename, fields }), reject);
    });
    req.pipe(parser);
  });
}
