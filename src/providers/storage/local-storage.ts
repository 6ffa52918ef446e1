import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { NotFoundError } from '../../shared/errors';
import type { FileStorage, StoredKey } from './file-storage';

const PARTIAL_SUFFIX = '.partial';

/** Files on local disk, fanned out by the key's first characters so no folder grows huge. */
export class LocalStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!/^[A-Za-z0-9-]+$/.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    return join(this.root, key.slice(0, 2), key);
  }

  async putFile(key: string, path: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    // Write beside the target and rename: a reader never sees half a file.
    const partial = `${target}${PARTIAL_SUFFIX}`;
    await copyFile(path, partial);
    await rename(partial, target);
  }

  read(key: string): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key));
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'ENOENT' ? new NotFoundError() : error),
      );
    });
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await Promise.all([rm(path, { force: true }), rm(`${path}${PARTIAL_SUFFIX}`, { force: true })]);
  }

  /** A copy cut short leaves `<key>.partial`: listed under its key, so that the sweep removes it with the key. */
  async *keys(): AsyncIterable<StoredKey> {
    for (const fanOut of await readdir(this.root).catch(() => [])) {
      for (const name of await readdir(join(this.root, fanOut)).catch(() => [])) {
        const modified = await stat(join(this.root, fanOut, name)).catch(() => undefined); // removed meanwhile
        if (modified)
          yield {
            key: name.endsWith(PARTIAL_SUFFIX) ? name.slice(0, -PARTIAL_SUFFIX.length) : name,
            modifiedAt: modified.mtime,
          };
      }
    }
  }

  async download(key: string, path: string): Promise<void> {
    try {
      await copyFile(this.pathOf(key), path);
    } catch (error) {
      throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? new NotFoundError() : error;
    }
  }
}
