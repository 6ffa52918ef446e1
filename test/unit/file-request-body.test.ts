import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { FileRequestBody } from '../../src/providers/storage/file-request-body';
import { openFiles } from '../helpers/open-files';

/** A file of a few chunks and a piece of one, as an upload sent to S3 is. */
function aFile(): { path: string; content: Buffer } {
  const path = join(mkdtempSync(join(tmpdir(), 'ltk-body-')), 'upload');
  const content = randomBytes(5 * 64 * 1024 + 1234);
  writeFileSync(path, content);
  return { path, content };
}

/** Whether this process holds a descriptor of `path`. */
const isOpen = (path: string) => openFiles().includes(path);

/** A request stand-in that calls back for each write a little later, as a socket does once the kernel has the bytes. */
function slowDestination() {
  const writes: { chunk: Buffer; copy: Buffer; unchangedAtCallback?: boolean }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const write = { chunk, copy: Buffer.from(chunk) };
      writes.push(write);
      setTimeout(() => {
        Object.assign(write, { unchangedAtCallback: write.chunk.equals(write.copy) });
        callback();
      }, 1);
    },
  });
  return { destination, writes };
}

describe('FileRequestBody', () => {
  it('sends a file through one buffer, refilled only once the request has called back for it', async () => {
    const { path, content } = aFile();
    const { destination, writes } = slowDestination();
    new FileRequestBody(path).pipe(destination);
    await finished(destination);
    expect(Buffer.concat(writes.map((write) => write.copy)).equals(content)).toBe(true);
    expect(writes.every((write) => write.unchangedAtCallback)).toBe(true);
    expect(new Set(writes.map((write) => write.chunk.buffer)).size).toBe(1);
    expect(isOpen(path)).toBe(false);
  });

  it('gives the same bytes when read rather than piped', async () => {
    const { path, content } = aFile();
    const chunks: Buffer[] = [];
    for await (const chunk of new FileRequestBody(path) as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
    expect(isOpen(path)).toBe(false);
  });

  it('stops and closes the file when the request closes mid-body', async () => {
    const { path } = aFile();
    let writes = 0;
    const destination = new Writable({
      // At the second write its socket closes: no call back, as a request whose socket closed gives none.
      write(_chunk, _encoding, callback) {
        if (++writes === 2) this.destroy();
        else callback();
      },
    });
    const body = new FileRequestBody(path);
    body.pipe(destination);
    await new Promise((resolve) => body.once('close', resolve));
    expect(writes).toBe(2);
    expect(isOpen(path)).toBe(false);
  });

  it('fails the request, not the process, when the file cannot be read', async () => {
    const body = new FileRequestBody(join(tmpdir(), 'ltk-body-missing'));
    const bodyError = jest.fn();
    body.on('error', bodyError);
    const closed = new Promise((resolve) => body.once('close', resolve));
    const destination = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    body.pipe(destination);
    await expect(finished(destination)).rejects.toMatchObject({ code: 'ENOENT' });
    await closed;
    expect(bodyError).not.toHaveBeenCalled();
  });

  it('is sent once: a second request is failed, the first still gets every byte', async () => {
    const { path, content } = aFile();
    const body = new FileRequestBody(path);
    const first = slowDestination();
    const second = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    body.pipe(first.destination);
    body.pipe(second);
    await expect(finished(second)).rejects.toThrow('A request body is sent once.');
    await finished(first.destination);
    expect(Buffer.concat(first.writes.map((write) => write.copy)).equals(content)).toBe(true);
  });
});
