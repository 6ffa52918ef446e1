import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { jsonBody } from '../../src/api/http/json-body';
import { postPieces } from '../helpers/raw-post';

/** What the handler after the reader saw: the body, and whether the request's async context came along. */
interface Seen {
  status: number;
  body?: unknown;
  sameContext: boolean;
  error?: string;
}

describe('jsonBody (D25)', () => {
  const context = new AsyncLocalStorage<string>();
  const app = express();
  let counter = 0;
  app.use((req, _res, next) =>
    context.run(String(++counter), () => (((req as { tag?: string }).tag = String(counter)), next())),
  );
  app.use(jsonBody(64).middleware);
  const sameContext = (req: express.Request) => context.getStore() === (req as { tag?: string }).tag;
  app.post('/', (req, res) => void res.json({ status: 200, body: req.body, sameContext: sameContext(req) }));
  const onError: ErrorRequestHandler = (error: { type: string; status: number }, req, res, _next) =>
    void res.status(error.status).json({ status: error.status, error: error.type, sameContext: sameContext(req) });
  app.use(onError);

  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = async (type: string, ...pieces: string[]): Promise<Seen> =>
    JSON.parse((await postPieces(`http://127.0.0.1:${port}/`, pieces, { 'content-type': type })).body) as Seen;

  /** Exact bytes on a fresh connection; the answer's JSON body. */
  const sendBytes = (bytes: Buffer): Promise<Seen> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Seen));
    });

  it('goes on in the request’s own async context, with a body read in several pieces, refused or malformed', async () => {
    expect(await post('application/json', '{"a":', '1}')).toEqual({ status: 200, body: { a: 1 }, sameContext: true });
    expect(await post('application/json', '{"a":"', 'x'.repeat(100), '"}')).toEqual({
      status: 413,
      error: 'entity.too.large',
      sameContext: true,
    });
    expect(await post('application/json', '{"a":', '}')).toEqual({
      status: 400,
      error: 'entity.parse.failed',
      sameContext: true,
    });
  });

  it('reads directly only the plain spellings of UTF-8 JSON, leaving any other to body-parser', async () => {
    expect(await post('application/json; charset="UTF-8"', '{"a":1}')).toMatchObject({ status: 200, body: { a: 1 } });
    expect(await post('application/json\t;charset=utf-8', '{"a":1}')).toMatchObject({ status: 200, body: { a: 1 } });
    // A no-break space (the byte 0xA0, which node's client would send as UTF-8) is no HTTP whitespace: this is not a
    // JSON media type, for body-parser or here.
    const head = Buffer.concat([
      Buffer.from(
        'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 7\r\nContent-Type: application/json',
      ),
      Buffer.from([0xa0]),
      Buffer.from(';charset=utf-8\r\n\r\n'),
    ]);
    expect(await sendBytes(Buffer.concat([head, Buffer.from('{"a":1}')]))).toEqual({ status: 200, sameContext: true });
    expect(await post('application/json; charset=latin1', '{"a":1}')).toMatchObject({
      status: 415,
      error: 'charset.unsupported',
    });
  });
});
