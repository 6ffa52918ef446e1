import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AnalysisResult } from './analysis-result';

export interface AnalysisJob {
  path: string;
  mimeType: string;
}

export type WorkerMessage = { kind: 'ready' } | { kind: 'result'; result: AnalysisResult; rssBytes: number };

/** What one job in the child came to: its answer, or the child's end before it answered. */
export type JobOutcome = { kind: 'answered'; result: AnalysisResult; rssBytes: number } | { kind: 'died' } | { kind: 'timed_out' };

/**
 * The shell sets RLIMIT_DATA, then becomes node. Since Linux 4.7 RLIMIT_DATA counts every private writable
 * mapping (V8's heap as it commits, array buffers, malloc arenas, thread stacks), so it bounds the memory the
 * child can make resident, while V8's large inaccessible address-space reservations do not count (RLIMIT_AS
 * would: node does not even start under 512 MB of address space). Past the limit an allocation fails: a RangeError in
 * JavaScript, or V8 aborting the child. The service process itself is never limited or at risk (D25).
 */
const LIMITED_EXEC = 'ulimit -d "$1" && shift && exec "$@"';

/** One analysis child process under a hard memory limit. */
export class AnalysisProcess {
  readonly ready: Promise<void>;
  private readonly child: ChildProcess;
  private exited = false;
  private onMessage?: (message: WorkerMessage) => void;
  private onExit?: () => void;

  /** `workerScript`: the compiled analysis.worker.ts, named by the composition root (which knows the build's layout). */
  constructor(maxMemoryMb: number, workerScript: string) {
    if (!existsSync(workerScript)) throw new Error(`The analysis worker is not built (${workerScript}): run npm run build.`);
    // V8 collects garbage before its heap reaches half the limit; the other half is for decoded buffers.
    const node = [process.execPath, `--max-old-space-size=${Math.floor(maxMemoryMb / 2)}`, workerScript];
    this.child = spawn('/bin/sh', ['-c', LIMITED_EXEC, 'sh', String(maxMemoryMb * 1024), ...node], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    this.child.on('message', (message: WorkerMessage) => this.onMessage?.(message));
    this.ready = new Promise((resolve, reject) => {
      this.onMessage = (message) => message.kind === 'ready' && resolve();
      this.child.once('error', reject);
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        reject(new Error(`The analysis worker ended (${signal ?? `exit code ${code}`}) before it was ready.`));
        this.onExit?.();
      });
    });
    this.ready.catch(() => undefined); // awaited by the first job; an idle failure must not go unhandled
    this.hold(false);
  }

  /** The process id, for memory sampling and logs. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Runs one job; past `timeoutMs` the child is killed. A child that dies or is killed is not used again. */
  async run(job: AnalysisJob, timeoutMs: number): Promise<JobOutcome> {
    this.hold(true);
    try {
      await this.ready;
      return await new Promise<JobOutcome>((resolve) => {
        const timer = setTimeout(() => {
          this.kill();
          resolve({ kind: 'timed_out' });
        }, timeoutMs);
        const settle = (outcome: JobOutcome) => {
          clearTimeout(timer);
          resolve(outcome);
        };
        this.onMessage = (message) => message.kind === 'result' && settle({ kind: 'answered', result: message.result, rssBytes: message.rssBytes });
        this.onExit = () => settle({ kind: 'died' });
        if (this.exited) return settle({ kind: 'died' });
        this.child.send(job);
      });
    } finally {
      this.onMessage = this.onExit = undefined;
      this.hold(false);
    }
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /**
   * Only a job in flight holds the event loop open: an idle child never keeps the service alive (it exits when
   * its channel closes), while a caller waiting for an answer is not left behind by an exiting loop.
   */
  private hold(ref: boolean): void {
    const channel = this.child.channel as { ref(): void; unref(): void } | null | undefined;
    if (ref) {
      this.child.ref();
      channel?.ref();
    } else {
      this.child.unref();
      channel?.unref();
    }
  }
}
