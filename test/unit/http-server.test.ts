import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '../../src/api/http/http-server';

/** Sends `data` and keeps the connection open; resolves with what the server answered once it closes. */
function dribble(port: number, data: string): Promise<{ answer: string; afterMs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, afterMs: Date.now() - started }));
  });
}

describe('slow clients (D25)', () => {
  const server = createHttpServer(
    (req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    },
    { headersTimeoutMs: 400, requestTimeoutMs: 800 },
  );
  let port: number;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  it('answers 408 and closes a connection that never finishes its headers', async () => {
    const { answer, afterMs } = await dribble(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeLessThan(1500);
  });

  it('answers 408 and closes a connection that never finishes its body', async () => {
    const { answer, afterMs } = await dribble(
      port,
      'POST /api/v1/quotes HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(700);
    expect(afterMs).toBeLessThan(2500);
  });

  it('serves a client that sends in time', async () => {
    const { answer } = await dribble(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 [\s\S]*ok$/);
  });
});
