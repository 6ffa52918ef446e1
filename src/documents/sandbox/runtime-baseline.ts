import { spawn } from 'node:child_process';

/** Longer than any healthy start (about a second); a runtime that takes this long to load cannot serve documents. */
const BASELINE_TIMEOUT_MS = 60_000;

/**
 * The data segment, in KB, that this Node runtime needs to start the sandbox's worker and load its parsers,
 * measured by starting it once without a limit (Node 20 and 22 take about 150 MB, Node 24 about 600 MB, most of
 * it address space V8 reserves). A child's limit is this plus what documents may use (D25), so the ceiling
 * set for documents means the same on every runtime.
 */
export function measureRuntimeBaseline(workerScript: string): Promise<number> {
  // Once per process and worker: the runtime does not change under a running process.
  let measured = baselines.get(workerScript);
  if (!measured) {
    measured = measure(workerScript);
    baselines.set(workerScript, measured);
    measured.catch(() => baselines.delete(workerScript));
  }
  return measured;
}

const baselines = new Map<string, Promise<number>>();

function measure(workerScript: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [workerScript, '--baseline'], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), BASELINE_TIMEOUT_MS);
    child.once('message', (message: { kind: string; dataKb?: number }) => {
      if (message.kind === 'baseline' && message.dataKb) resolve(message.dataKb);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`the runtime's baseline could not be measured: the worker ended (${signal ?? `exit code ${code}`})`),
      );
    });
  });
}
