import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Entry, ZipFile } from 'yauzl';
import { ZipFile as ZipWriter } from 'yazl';
import { entries, openZip } from './zip-reader';

/** What a rewrite of a client's zip (a DOCX) may unpack: the same bounds as analysis (D25). */
export interface ZipLimits {
  maxEntries: number;
  /** Total inflated bytes of all entries. */
  maxUnpackedBytes: number;
  /** Inflated / compressed size of one entry: real parts stay far below; bombs go far above. */
  maxCompressionRatio: number;
}

export class ZipLimitError extends Error {}

export interface ZipRewrite {
  /** A transform for the entry's bytes, or undefined to copy them as they are. */
  rewrite(name: string): Transform | undefined;
  /** Entries to leave out (a part the rewrite writes anew). */
  skip?(name: string): boolean;
  /** Entries added at the end, after every kept one. */
  added?(): Array<{ name: string; content: Buffer }>;
}

/**
 * Copies the zip at `input` to `output` entry by entry, streaming each one through its rewrite: no entry is
 * ever held whole, so memory stays flat whatever the entries hold. Declared sizes are checked before an entry
 * is read and the inflated bytes as they come, so a bomb stops at the limit.
 */
export async function rewriteZip(input: string, output: string, limits: ZipLimits, plan: ZipRewrite): Promise<void> {
  const zip = await openZip(input);
  const out = new ZipWriter();
  const written = pipeline(out.outputStream, createWriteStream(output));
  written.catch(() => undefined); // awaited below; a failure before then must not go unhandled
  try {
    if (zip.entryCount > limits.maxEntries) throw new ZipLimitError('The document has too many parts.');
    let unpacked = 0;
    for await (const entry of entries(zip)) {
      if (entry.fileName.endsWith('/') || plan.skip?.(entry.fileName)) continue;
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (unpacked + entry.uncompressedSize > limits.maxUnpackedBytes || ratio > limits.maxCompressionRatio) {
        throw new ZipLimitError('The document unpacks to more than the limit.');
      }
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          unpacked += chunk.length;
          done(
            unpacked > limits.maxUnpackedBytes
              ? new ZipLimitError('The document unpacks to more than the limit.')
              : null,
            chunk,
          );
        },
      });
      const raw = await openEntry(zip, entry);
      const rewrite = plan.rewrite(entry.fileName);
      const content = rewrite ? raw.pipe(counter).pipe(rewrite) : raw.pipe(counter);
      // One entry at a time: the next is opened only once the writer has taken all of this one.
      await new Promise<void>((resolve, reject) => {
        for (const stream of [raw, counter, content]) stream.once('error', reject);
        content.once('end', resolve);
        out.addReadStream(content, entry.fileName);
      });
    }
    for (const { name, content } of plan.added?.() ?? []) out.addBuffer(content, name);
    out.end();
    await written;
  } catch (error) {
    (out.outputStream as unknown as Readable).destroy();
    throw error;
  } finally {
    zip.close();
  }
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}
