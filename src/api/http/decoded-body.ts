import type { Request } from 'express';
import { Transform, type Readable } from 'node:stream';
import zlib from 'node:zlib';

/** An error shaped as body-parser's (http-errors): the error handler reads `type`, `status` and `expose` (D2). */
export function bodyError(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type });
}

/** Answered 400 `Malformed request body.` by the error handler (D2). */
export const undecodableBody = (): Error => bodyError(400, 'entity.decode.failed', 'the body does not decompress');

/**
 * A compressed body that does not decompress: zlib's own error (`incorrect header check`, with `errno` and `code`,
 * and no `type` of its own), which body-parser passes on as it is and which must not be answered in zlib's words.
 */
export function isDecompressionFailure(error: unknown): boolean {
  const e = error as { type?: unknown; errno?: unknown; code?: unknown } | undefined;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.type === undefined &&
    typeof e.errno === 'number' &&
    typeof e.code === 'string'
  );
}

/** The codings body-parser reads for JSON, read alike for multipart. */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** What a form may hold besides its file (text fields, part headers): with the file's limit, a compressed body's. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * A multipart body as it was before its content coding, for the upload readers (busboy reads bytes as they come).
 * At most the file's limit and FORM_OVERHEAD_BYTES are decoded: a small compressed body can stand for gigabytes.
 * The stream fails with the error to answer (400 `Malformed request body.` or 413); an unknown coding throws a
 * 415, as body-parser's does.
 */
export function decodedBody(req: Request, maxFileBytes: number): Readable {
  const maxBytes = maxFileBytes + FORM_OVERHEAD_BYTES;
  const coding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (coding === 'identity') return req;
  const decoder = DECODERS[coding]?.();
  if (!decoder) throw bodyError(415, 'encoding.unsupported', `unsupported content encoding "${coding}"`);
  let size = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return fail(bodyError(413, 'entity.too.large', 'request entity too large'));
      done(null, chunk);
    },
  });
  const fail = (error: Error) => {
    req.unpipe(decoder);
    decoder.unpipe(bounded);
    req.resume(); // read off the rest, so that the connection can answer
    bounded.destroy(isDecompressionFailure(error) ? undecodableBody() : error);
  };
  decoder.on('error', fail);
  // A pipe does not pass a client's going away on: the decoded body closes with the request, so that its reader
  // (graphql-upload watches its own source) fails the part being received and its temporary file goes (D25).
  req.once('close', () => {
    if (req.readableEnded) return;
    decoder.destroy();
    bounded.destroy();
  });
  req.pipe(decoder).pipe(bounded);
  return bounded;
}
