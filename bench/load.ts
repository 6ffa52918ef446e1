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

/** The latency of every answered request (ms) over a run of `seconds`. */
export interface LoadRun {
  latencies: number[];
  seconds: number;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** The lowest and the highest p99 of a single run: how far the tail moves between turns of the same target. */
  p99Range: [number, number];
}

/** Several runs of one target taken together. */
export function summarize(runs: LoadRun[]): LoadResult {
  const latencies = sorted(runs.flatMap((run) => run.latencies));
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const p99s = runs.map((run) => quantile(sorted(run.latencies), 0.99));
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    p99Range: [Math.min(...p99s), Math.max(...p99s)],
  };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const quantile = (ascending: number[], q: number) =>
  ascending[Math.min(ascending.length - 1, Math.floor(q * ascending.length))] ?? NaN;

/**
 * A closed loop: `connections` keep-alive clients, each sending its next request as soon as the last is answered,
 * for `seconds`. Node's own http client, so the load costs the machine the same for every server measured.
 */
export async function load(
  port: number,
  connections: number,
  seconds: number,
  next: (i: number) => LoadRequest,
): Promise<LoadRun> {
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
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function send(agent: Agent, port: number, { method, path, headers, body, status }: LoadRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === status
          ? resolve()
          : reject(new Error(`${method} ${path}: ${res.statusCode}, expected ${status}`)),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
