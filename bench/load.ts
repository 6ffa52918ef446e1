import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** One request of a load run: built per call so that clients cycle over many resources. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The status every answer must have. */
  status: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/**
 * A closed loop: `connections` keep-alive clients, each sending its next request as soon as the last is answered,
 * for `seconds`. Node's own http client, so the load costs the machine the same for every server measured.
 */
export async function load(port: number, connections: number, seconds: number, next: (i: number) => LoadRequest): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let sent = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const req = next(sent++);
          const begun = performance.now();
          await send(agent, port, req);
          latencies.push(performance.now() - begun);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, seconds: elapsed, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

function send(agent: Agent, port: number, { method, path, headers, body, status }: LoadRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === status ? resolve() : reject(new Error(`${method} ${path}: ${res.statusCode}, expected ${status}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
