import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** Node's flags in `npm run serve` (package.json), so the service is measured as it is deployed. */
export const SERVE_FLAGS = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { serve: string } }
).scripts.serve
  .split(' dist/')[0]
  .split(' ')
  .filter((word) => word.startsWith('--'));

/** The service as `npm run serve` starts it (or any other script of dist/), as a process of its own. */
export function start(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Ends the processes and waits for them to exit. */
export async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null))),
    ),
  );
}

export async function ready(port: number, headers: Record<string, string>): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await fetch(`http://127.0.0.1:${port}/api/v1/orders/00000000-0000-4000-8000-000000000000`, { headers });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`nothing answers on port ${port}`);
}

/** Share of all cores busy over one second, read from /proc/stat (Linux); NaN elsewhere. */
export async function machineBusy(): Promise<number> {
  const sample = () => {
    try {
      const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
      return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
    } catch {
      return { idle: NaN, total: NaN };
    }
  };
  const before = sample();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = sample();
  return 1 - (after.idle - before.idle) / (after.total - before.total);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
