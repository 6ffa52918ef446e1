import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ChildMessage, SandboxTask, TaskAnswer } from './tasks';

/** The memory a child may use: its data segment in all, and the part of it V8's heap may grow to. */
export interface ChildLimits {
  dataLimitKb: number;
  heapMb: number;
  /** A child not ready by then is killed: under a limit too low for it, node may hang instead of failing. */
  startTimeoutMs: number;
}

/** What one task in the child came to: its answer, or the child's end before it answered. */
export type TaskOutcome =
  | { kind: 'answered'; answer: TaskAnswer; rssBytes: number }
  | { kind: 'died' }
  | { kind: 'timed_out' }
  /** The child ended before it was ready: no document was involved, the sandbox itself is failing. */
  | { kind: 'not_started'; reason: string };

/**
 * The shell sets RLIMIT_DATA, then becomes node. Since Linux 4.7 RLIMIT_DATA counts every private writable
 * mapping (V8's heap as it commits, array buffers, malloc arenas, thread stacks), so it bounds the memory the
 * child can make resident, while V8's large inaccessible address-space reservations do not count (RLIMIT_AS
 * would: node does not even start under 512 MB of address space). Past the limit an allocation fails: a RangeError in
 * JavaScript, or V8 aborting the child. The service process itself is never limited or at risk (D25).
 */
const LIMITED_EXEC = 'ulimit -d "$1" && shift && exec "$@"';

/** One document-sandbox child process under a hard memory limit. */
export class SandboxProcess {
  private readonly ready: Promise<void>;
  private readonly child: ChildProcess;
  private exited = false;
  private isReady = false;
  private onMessage?: (message: ChildMessage) => void;
  private onExit?: () => void;
  /** The running task's deadline, which stands still while the child is paused. */
  private deadline?: { timer?: NodeJS.Timeout; remainingMs: number; since: number; expire: () => void };
  /** Why the child is paused: each holder resumes it by its own release. */
  private pauses = 0;
  /** The process that continues the child if nothing here does (`pause()`). */
  private waker?: ChildProcess;

  /** `workerScript`: the compiled sandbox.worker.ts, named by the composition root (which knows the build's layout). */
  constructor(limits: ChildLimits, workerScript: string) {
    if (!existsSync(workerScript))
      throw new Error(`The document sandbox's worker is not built (${workerScript}): run npm run build.`);
    const node = [process.execPath, `--max-old-space-size=${limits.heapMb}`, workerScript];
    this.child = spawn('/bin/sh', ['-c', LIMITED_EXEC, 'sh', String(limits.dataLimitKb), ...node], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    this.child.on('message', (message: ChildMessage) => this.onMessage?.(message));
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`the child was not ready within ${limits.startTimeoutMs / 1000} s`));
        this.kill();
      }, limits.startTimeoutMs);
      timer.unref();
      this.onMessage = (message) => {
        if (message.kind !== 'ready') return;
        clearTimeout(timer);
        this.isReady = true;
        resolve();
      };
      this.child.once('error', reject);
      this.child.once('exit', (code, signal) => {
        clearTimeout(timer);
        this.exited = true;
        reject(new Error(`the child ended (${signal ?? `exit code ${code}`}) before it was ready`));
        this.onExit?.();
      });
    });
    this.ready.catch(() => undefined); // awaited by the first task; an idle failure must not go unhandled
    this.hold(false);
  }

  /** Settles once the child is ready; rejects when it ended before. */
  started(): Promise<void> {
    return this.ready;
  }

  /** The process id, for memory sampling and logs. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Started and not ended: a child still loading is never paused, or its start could time out. */
  get warm(): boolean {
    return this.isReady && !this.exited;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Runs one task; past `timeoutMs` the child is killed. A child that dies or is killed is not used again. */
  async run(task: SandboxTask, timeoutMs: number): Promise<TaskOutcome> {
    this.hold(true);
    try {
      try {
        await this.ready;
      } catch (error) {
        return { kind: 'not_started', reason: (error as Error).message };
      }
      return await new Promise<TaskOutcome>((resolve) => {
        const settle = (outcome: TaskOutcome) => {
          clearTimeout(this.deadline?.timer);
          this.deadline = undefined;
          resolve(outcome);
        };
        this.deadline = {
          remainingMs: timeoutMs,
          since: Date.now(),
          expire: () => {
            this.kill();
            settle({ kind: 'timed_out' });
          },
        };
        this.startDeadline();
        this.onMessage = (message) =>
          message.kind === 'answer' && settle({ kind: 'answered', answer: message.answer, rssBytes: message.rssBytes });
        this.onExit = () => settle({ kind: 'died' });
        if (this.exited) return settle({ kind: 'died' });
        this.child.send(task);
      });
    } finally {
      this.onMessage = this.onExit = undefined;
      this.hold(false);
    }
  }

  kill(): void {
    this.stopWaker();
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /**
   * Stops the child where it is (SIGSTOP), so that its core goes to another account's short document; its task's
   * deadline stands still meanwhile. Pauses nest: the child runs again once every `pause()` has had its `resume()`.
   * A waker, a process of its own session, sends SIGCONT after `atMostMs` whatever happens here: a child stopped
   * when its service dies (an OOM kill, a crash, a supervisor that kills the service alone) runs again, finds its
   * channel closed, and exits, instead of lying stopped for ever.
   */
  pause(atMostMs: number): void {
    if (this.pauses++ > 0 || this.exited || !this.child.pid) return;
    this.waker = spawn(
      '/bin/sh',
      ['-c', 'sleep "$1" && kill -CONT "$2"', 'sh', String(atMostMs / 1000), String(this.child.pid)],
      {
        detached: true,
        stdio: 'ignore',
      },
    );
    this.waker.on('error', () => undefined);
    this.waker.unref();
    this.child.kill('SIGSTOP');
    if (!this.deadline) return;
    clearTimeout(this.deadline.timer);
    this.deadline.remainingMs -= Date.now() - this.deadline.since;
  }

  resume(): void {
    if (this.pauses === 0 || --this.pauses > 0) return;
    this.stopWaker();
    if (this.exited) return;
    this.child.kill('SIGCONT');
    this.startDeadline();
  }

  private stopWaker(): void {
    this.waker?.kill('SIGKILL');
    this.waker = undefined;
  }

  private startDeadline(): void {
    const deadline = this.deadline;
    if (!deadline || this.pauses > 0) return;
    deadline.since = Date.now();
    deadline.timer = setTimeout(deadline.expire, Math.max(0, deadline.remainingMs));
  }

  /**
   * Only a task in flight holds the event loop open: an idle child never keeps the service alive (it exits when
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
