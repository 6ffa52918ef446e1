import { request, type Agent } from 'node:http';

export interface RawAnswer {
  status: number;
  body: string;
  /** The connection it came on, to tell whether a keep-alive connection was reused. */
  socket: unknown;
}

/**
 * A POST written piece by piece with node's own client, as supertest cannot: chunked unless it is one piece (then
 * with its Content-Length), each piece sent after the last has gone out, so the server reads the body in several
 * reads.
 */
export function postPieces(
  url: string,
  pieces: (string | Buffer)[],
  headers: Record<string, string>,
  agent?: Agent,
): Promise<RawAnswer> {
  const { hostname, port, pathname } = new URL(url);
  const length = pieces.length === 1 ? { 'Content-Length': String(Buffer.byteLength(pieces[0])) } : {};
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, method: 'POST', path: pathname, agent, headers: { ...headers, ...length } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, socket: req.socket }));
      },
    );
    req.on('error', reject);
    const write = (i: number): void => {
      if (i === pieces.length) return void req.end();
      req.write(pieces[i], () => setTimeout(() => write(i + 1), 5));
    };
    write(0);
  });
}
