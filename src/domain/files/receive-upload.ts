import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { once } from 'node:events';

export type ReceivedUpload = { tooLarge: false; path: string; size: number; sha256: string } | { tooLarge: true };

/** Raised by an upload source that cut the stream at its own limit (graphql-upload, busboy). */
export const isSourceLimitError = (error: unknown): boolean =>
  (error as { status?: number })?.status === 413 ||
  /too large|exceeds? the (maximum|limit)/i.test(String((error as Error)?.message));

/**
 * Streams an upload to a temporary file in `dir`, never holding it in memory. Past `maxBytes` nothing more is
 * written and the temporary file is removed: the rest of the stream is read and dropped so that the
 * request can still be answered, and the caller learns it was too large. A stream that fails (an aborted
 * request) leaves no file either (D25).
 */
export async function receiveUpload(source: Readable, maxBytes: number, dir: string): Promise<ReceivedUpload> {
  const path = join(dir, `ltk-upload-${randomUUID()}`);
  const out = createWriteStream(path, { mode: 0o600 });
  const hash = createHash('sha256');
  let size = 0;
  let tooLarge = false;
  try {
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) tooLarge = true;
        if (tooLarge) continue;
        hash.update(chunk);
        if (!out.write(chunk)) await once(out, 'drain');
      }
    } catch (error) {
      if (!isSourceLimitError(error)) throw error;
      tooLarge = true;
    }
    out.end();
    await once(out, 'close');
    if (tooLarge) {
      await rm(path, { force: true });
      return { tooLarge: true };
    }
    return { tooLarge: false, path, size, sha256: hash.digest('hex') };
  } catch (error) {
    out.destroy();
    await rm(path, { force: true });
    throw error;
  }
}

/** Size and SHA-256 of a local file, read as a stream. */
export async function describeFile(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { size, sha256: hash.digest('hex') };
}
