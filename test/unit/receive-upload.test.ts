import fs, { mkdtempSync, readdirSync, statSync, WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { receiveUpload } from '../../src/domain/files/receive-upload';

/** D25: an upload that fails, whatever fails, leaves no temporary file and fails only its own request. */

const folder = () => mkdtempSync(join(tmpdir(), 'ltk-receive-'));
const source = () => new Readable({ read() {} });

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Once the temporary file holds `size` bytes: it is open, and its first write is done. */
const holds = (dir: string, size: number) => () => {
  const [name] = readdirSync(dir);
  return name !== undefined && statSync(join(dir, name)).size === size;
};

afterEach(() => jest.restoreAllMocks());

describe('receiveUpload', () => {
  it('keeps a whole upload in its temporary file', async () => {
    const dir = folder();
    const body = source();
    const received = receiveUpload(body, 100, dir);
    body.push(Buffer.from('%PDF-1.7\n'));
    body.push(null);
    expect(await received).toMatchObject({ tooLarge: false, size: 9, path: expect.stringContaining(dir) });
  });

  it('writes each chunk as its source pushed it, never joining those that piled up into a new buffer', async () => {
    const body = source();
    const pushed = ['%PDF-1.7\n', 'second', 'third', 'fourth'].map((text) => Buffer.from(text));
    const written: unknown[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the spy below calls it with the stream as `this`
    const write = WriteStream.prototype.write;
    jest.spyOn(WriteStream.prototype, 'write').mockImplementation(function (
      this: WriteStream,
      ...args: Parameters<WriteStream['write']>
    ) {
      written.push(args[0]);
      return write.apply(this, args);
    });
    const received = receiveUpload(body, 100, folder());
    // All at once: the last three wait while the first is written.
    for (const chunk of pushed) body.push(chunk);
    body.push(null);
    expect(await received).toMatchObject({ tooLarge: false, size: Buffer.concat(pushed).length });
    expect(written).toEqual(pushed);
    expect(written.every((chunk, i) => chunk === pushed[i])).toBe(true);
  });

  it('fails with its source, leaving no file, when the source fails while a write to the file is in flight', async () => {
    const dir = folder();
    const body = source();
    const aborted = new Error('The request was aborted.');
    // The client goes away just as the file stream is handed the second chunk, so that the upload gives up while
    // that chunk is still being written: the file stream then reports the write it dropped, an error of its own.
    const handed: WriteStream[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the spy below calls it with the stream as `this`
    const write = WriteStream.prototype.write;
    jest.spyOn(WriteStream.prototype, 'write').mockImplementation(function (
      this: WriteStream,
      ...args: Parameters<WriteStream['write']>
    ) {
      const written = write.apply(this, args);
      if (String(args[0]) === 'second') {
        handed.push(this);
        body.destroy(aborted);
      }
      return written;
    });
    const received = receiveUpload(body, 100, dir);
    body.push(Buffer.from('first'));
    await until(holds(dir, 5));
    body.push(Buffer.from('second'));
    await expect(received).rejects.toBe(aborted);
    // Whatever the file stream still had to say has been said once it closed: unheard, it failed this test.
    const [file] = handed;
    if (!file?.closed) await new Promise<void>((resolve) => file?.once('close', () => resolve()));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails, leaving no file, when its source closes before its end without an error', async () => {
    const dir = folder();
    const body = source();
    const received = receiveUpload(body, 100, dir);
    body.push(Buffer.from('first'));
    await until(holds(dir, 5));
    body.destroy();
    await expect(received).rejects.toHaveProperty('message');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails with the write error, leaving no file, when the file cannot be written (a full disk)', async () => {
    const dir = folder();
    const body = source();
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    jest.spyOn(fs, 'write').mockImplementation((...args: unknown[]) => {
      const done = args.at(-1) as (error: Error) => void;
      setImmediate(() => done(full));
    });
    const received = receiveUpload(body, 100, dir);
    body.push(Buffer.from('first'));
    await expect(received).rejects.toBe(full);
    expect(readdirSync(dir)).toEqual([]);
  }, 10_000);
});
