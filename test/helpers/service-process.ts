import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/db/paths';

/** The compiled service and CLI, as `npm start` and `npm run cli` run them (`npm test` builds them first). */
export const MAIN = join(REPO_ROOT, 'dist', 'src', 'main.js');
export const CLI = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');

export function assertBuilt(): void {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run the tests with `npm test`, which builds first.');
}

/** The environment of a fresh machine: none of the test run's own database or jest settings. */
export function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const key of Object.keys(base)) {
    if (
      key.startsWith('LTK_') ||
      key.startsWith('JEST') ||
      ['DATABASE_URL', 'NODE_OPTIONS', 'TEST_DATABASE_URL', 'APP_ENV'].includes(key)
    )
      delete base[key];
  }
  return { ...base, ...env };
}

export interface RunningProcess {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

export function startProcess(script: string, args: string[], env: NodeJS.ProcessEnv): RunningProcess {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const collect = (into: string[]) => (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      into.push(line);
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  child.stdout.on('data', collect(stdout));
  child.stderr.on('data', collect(stderr));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout,
    stderr,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      const seen = [...stdout, ...stderr].find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`timed out waiting for ${pattern}; stdout: ${stdout.join('\n')} stderr: ${stderr.join('\n')}`),
            ),
          timeoutMs,
        );
        waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
        void exited.then(() => reject(new Error(`exited before ${pattern}; stderr: ${stderr.join('\n')}`)));
      });
    },
  };
}

/** Runs a command to its end. */
export async function run(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const proc = startProcess(script, args, env);
  const code = await proc.exited;
  return { code, stdout: proc.stdout, stderr: proc.stderr };
}
