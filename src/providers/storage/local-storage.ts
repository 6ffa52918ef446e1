import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { NotFoundError } from '../../shared/errors';
import type { FileStorage } from './file-storage';

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
    const partial = `${target}.partial`;
    await copyFile(path, partial);
    await rename(partial, target);
  }

  read(key: string): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key));
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new NotFoundError() : error));
    });
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async download(key: string, path: string): Promise<void> {
    try {
      await copyFile(this.pathOf(key), path);
    } catch (error) {
      throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? new NotFoundError() : error;
    }
  }
}
