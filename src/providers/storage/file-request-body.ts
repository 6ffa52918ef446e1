import { open, type FileHandle } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';

const CHUNK_BYTES = 64 * 1024;

/**
 * A local file as the body of one request. Piped (the way the SDK's HTTP handler sends a stream body), it reads
 * every chunk into the same buffer, refilled only once the request has called back for the last write of it, so
 * that sending a file makes no garbage: a file stream's fresh buffer per chunk lives until V8's next scavenge,
 * which comes only after some 32 MiB of them, and with the upload's own received chunks a 20 MB upload sent to S3
 * grew the service by more than 30 MiB (README, `bench:upload`). Read any other way, a fresh buffer per chunk.
 * Either way, read once: the file is opened at the first read and closed at the end or when destroyed.
 */
export class FileRequestBody extends Readable {
  private file: Promise<FileHandle> | undefined;
  private position = 0;
  private piped = false;

  constructor(private readonly path: string) {
    super({ highWaterMark: CHUNK_BYTES });
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    void this.send(destination as unknown as Writable, options?.end ?? true);
    return destination;
  }

  override _read(): void {
    this.readInto(Buffer.allocUnsafe(CHUNK_BYTES)).then(
      (chunk) => this.push(chunk),
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    void this.closeFile().then(() => callback(error));
  }

  /**
   * One chunk at a time, the next read only after the destination called back for the last write. A failure to
   * read fails the request (the caller hears it from the request); the body itself ends quietly, since nobody
   * listens to it for errors. The file is closed before the request ends, so that it is closed when the caller
   * hears the answer.
   */
  private async send(destination: Writable, end: boolean): Promise<void> {
    if (this.piped || this.readableDidRead || this.destroyed)
      return void destination.destroy(new Error('A request body is sent once.'));
    this.piped = true;
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let failure: Error | undefined;
    try {
      for (let chunk; (chunk = await this.readInto(buffer));) await written(destination, chunk);
    } catch (error) {
      failure = error as Error;
    }
    await this.closeFile();
    this.destroy();
    if (failure) destination.destroy(failure);
    else if (end) destination.end();
  }

  /** A close that fails loses nothing of a file only read, and is no failure of the request's. */
  private async closeFile(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.then((handle) => handle.close()).catch(() => undefined);
  }

  /** The next bytes of the file into `buffer`; null at its end. */
  private async readInto(buffer: Buffer): Promise<Buffer | null> {
    if (this.destroyed) throw new Error('The request body was destroyed.');
    const file = await (this.file ??= open(this.path));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, this.position);
    this.position += bytesRead;
    return bytesRead ? buffer.subarray(0, bytesRead) : null;
  }
}

/** Once `destination` has called back for `chunk` (it holds it no longer); rejected if it closes first. */
function written(destination: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error('The request closed before its body was sent.'));
    if (destination.destroyed) return closed();
    destination.once('close', closed);
    destination.write(chunk, (error) => {
      destination.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}
