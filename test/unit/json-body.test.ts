import { AsyncLocalStorage } from 'node:async_hooks';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { jsonBody } from '../../src/api/http/json-body';

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
  app.use((req, _res, next) => context.run(String(++counter), () => ((req as { tag?: string }).tag = String(counter), next())));
  app.use(jsonBody(64));
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

  /** The body in the given pieces, each written after the last has gone out, so the reader gets several reads. */
  const post = (type: string, ...pieces: string[]): Promise<Seen> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': type } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text) as Seen));
      });
      req.on('error', reject);
      const write = (i: number): void => {
        if (i === pieces.length) return void req.end();
        req.write(pieces[i], () => setTimeout(() => write(i + 1), 5));
      };
      write(0);
    });

  it('goes on in the request’s own async context, with a body read in several pieces, refused or malformed', async () => {
    expect(await post('application/json', '{"a":', '1}')).toEqual({ status: 200, body: { a: 1 }, sameContext: true });
    expect(await post('application/json', '{"a":"', 'x'.repeat(100), '"}')).toEqual({ status: 413, error: 'entity.too.large', sameContext: true });
    expect(await post('application/json', '{"a":', '}')).toEqual({ status: 400, error: 'entity.parse.failed', sameContext: true });
  });

  it('reads directly only the plain spellings of UTF-8 JSON, leaving any other to body-parser', async () => {
    expect(await post('application/json; charset="UTF-8"', '{"a":1}')).toMatchObject({ status: 200, body: { a: 1 } });
    expect(await post('application/json\t;charset=utf-8', '{"a":1}')).toMatchObject({ status: 200, body: { a: 1 } });
    // A no-break space is no HTTP whitespace: this is not a JSON media type, for body-parser or here.
    expect(await post('application/json\u00a0;charset=utf-8', '{"a":1}')).toEqual({ status: 200, sameContext: true });
    expect(await post('application/json; charset=latin1', '{"a":1}')).toMatchObject({ status: 415, error: 'charset.unsupported' });
  });
});
