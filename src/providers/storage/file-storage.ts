import type { Readable } from 'node:stream';

/**
 * Where file bytes live. Keys are opaque (the file id); the database row is the source of truth for
 * everything else. Implementations: local disk under DATA_DIR (default) and S3-compatible object storage.
 */
export interface FileStorage {
  /** Stores the bytes of a local file under `key`. */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /** Streams the bytes; rejects with NotFoundError when the key holds nothing. */
  read(key: string): Promise<Readable>;
  /** Removes the bytes; a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  /** Copies the bytes to a local file (analysis needs random access). */
  download(key: string, path: string): Promise<void>;
  /** Every key that holds bytes, half-written ones included, with when they were written (the sweep, D25). */
  keys(): AsyncIterable<StoredKey>;
}

export interface StoredKey {
  key: string;
  modifiedAt: Date;
}
