import { createHash, randomUUID } from 'node:crypto';
import { on } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export type ReceivedUpload = { tooLarge: false; path: string; size: number; sha256: string } | { tooLarge: true };

/** Raised by an upload source that cut the stream at its own limit (graphql-upload, busboy). */
export const isSourceLimitError = (error: unknown): boolean =>
  (error as { status?: number })?.status === 413 ||
  /too large|exceeds? the (maximum|limit)/i.test(String((error as Error)?.message));

/**
 * Streams an upload to a temporary file in `dir`, never holding it in memory. Past `maxBytes` nothing more is
 * written and the temporary file is removed: the rest of the stream is read and dropped so that the
 * request can still be answered, and the caller learns it was too large. A stream that fails (an aborted
 * request), or a file that cannot be written, leaves no file either (D25).
 */
export async function receiveUpload(source: Readable, maxBytes: number, dir: string): Promise<ReceivedUpload> {
  const path = join(dir, `ltk-upload-${randomUUID()}`);
  const out = createWriteStream(path, { mode: 0o600 });
  // Heard until the file is closed: each failure also reaches the write or the close that it fails, but the stream
  // reports it as an 'error' too (even a write it dropped on being destroyed mid-write), which unheard would crash
  // the process.
  let failure: Error | undefined;
  out.on('error', (error) => (failure ??= error));
  const closed = new Promise<void>((resolve) => out.once('close', resolve));
  const hash = createHash('sha256');
  let size = 0;
  let tooLarge = false;
  try {
    try {
      for await (const chunk of pushedChunks(source)) {
        size += chunk.length;
        if (size > maxBytes) tooLarge = true;
        if (tooLarge) continue;
        hash.update(chunk);
        // One write at a time, each awaited: a failed one fails the upload here (a 'drain' would never come), and
        // none is still in flight when the source fails.
        await new Promise<void>((resolve, reject) => out.write(chunk, (error) => (error ? reject(error) : resolve())));
      }
    } catch (error) {
      if (!isSourceLimitError(error)) throw error;
      tooLarge = true;
    }
    out.end();
    await closed;
    if (failure) throw failure;
    if (tooLarge) {
      await rm(path, { force: true });
      return { tooLarge: true };
    }
    return { tooLarge: false, path, size, sha256: hash.digest('hex') };
  } catch (error) {
    out.destroy();
    await closed;
    await rm(path, { force: true });
    throw error;
  }
}

/**
 * The chunks of `source` one at a time, as it pushed them: a byte stream's own iterator joins whatever piled up
 * while a write was awaited into a new buffer, a copy that lives until V8's next scavenge (README, bench:upload).
 * Read from its 'data' events, not through a pipe, which graphql-upload undoes on a file stream it cuts off. Like
 * that iterator, it fails with the source or when the source closes before its end, and destroys a source left
 * unread.
 */
async function* pushedChunks(source: Readable): AsyncGenerator<Buffer> {
  const cutShort = () => source.errored ?? new Error('The upload closed before its end.');
  if (source.destroyed) throw cutShort();
  const events = on(source, 'data', { close: ['end', 'close'], highWaterMark: 1 });
  source.resume();
  try {
    for await (const [chunk] of events) yield chunk as Buffer;
    if (!source.readableEnded) throw cutShort();
  } finally {
    if (!source.readableEnded) source.destroy();
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
