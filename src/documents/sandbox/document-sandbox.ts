import { ProviderUnavailableError, UntranslatableError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { UNKNOWN_PAGES, type AnalysisResult } from '../analysis/analysis-result';
import { FairQueue } from './fair-queue';
import { measureRuntimeBaseline } from './runtime-baseline';
import { SandboxProcess, type ChildLimits, type TaskOutcome } from './sandbox-process';
import type { SandboxTask, TaskKind, TaskOf, TaskResults } from './tasks';

export interface SandboxBounds {
  timeoutMs: number;
  /** What one document's work may use, in MB (ANALYSIS_MAX_MEMORY_MB), on top of what the runtime needs. */
  workMemoryMb: number;
  /** What the runtime needs to start the child, in MB; measured once at start when not configured. */
  runtimeMemoryMb?: number;
  /** Children working at once. */
  processes: number;
  /** How long a child may take to start. */
  startTimeoutMs: number;
  /** Tasks one account may have waiting; past it the sandbox answers busy. */
  maxWaitingPerAccount: number;
  /** The compiled worker the children run. */
  workerScript: string;
}

export const DEFAULT_BOUNDS = {
  timeoutMs: 120_000,
  startTimeoutMs: 30_000,
  workMemoryMb: 512,
  processes: 2,
  maxWaitingPerAccount: 16,
};

/** A rewrite of a document (a certification footer) that the document refused: too large, broken, too slow. */
export class DocumentRefusedError extends Error {}

/** No child can start (D25): an outage of the service's own, answered 503 with Retry-After like a provider's. */
export class SandboxUnavailableError extends ProviderUnavailableError {
  constructor() {
    super('Document processing', OUTAGE_RETRY_SECONDS);
  }
}

/** The account already has as many documents waiting as it may: 503 with Retry-After, or a job retried later. */
export class SandboxBusyError extends ProviderUnavailableError {
  constructor() {
    super('Document processing', BUSY_RETRY_SECONDS);
  }
}

/** Whether the sandbox can work, for /readyz and /metrics. */
export interface SandboxHealth {
  up: boolean;
  /** Why no child can start, while none can. */
  reason?: string;
  startFailures: number;
}

/** A child is replaced after this many tasks, so that a slow leak in a parser cannot build up. */
const TASKS_PER_PROCESS = 100;
/** While no child can start, tasks are refused at once for this long before a start is tried again. */
const OUTAGE_RETRY_SECONDS = 30;
/** A busy account's refused task is worth trying again about this soon. */
const BUSY_RETRY_SECONDS = 5;

interface Waiting {
  task: SandboxTask;
  resolve(outcome: TaskOutcome): void;
  reject(error: Error): void;
}

interface Slot {
  process?: SandboxProcess;
  tasksDone: number;
  busy: boolean;
  /** The task it runs: whose, since when, and how long it has stood paused for others' tasks. */
  running?: { lane: string; since: number; yieldedMs: number };
}

/** A task that has run this long is a long one: it yields its core while another account's newer task runs. */
export const LONG_TASK_MS = 500;
/** For at most this long per newer task, and never for more than half its time: it always moves on. */
const MAX_YIELD_MS = 2_000;

/**
 * Every parse or rewrite of a client's document (counting, the sandbox engine's translation, certification
 * footers) runs here, in warm child processes under a hard memory ceiling and a deadline (D25), never in the
 * service process. Accounts take turns (fair-queue.ts), so one account's documents never hold up another's by
 * more than one document per child; and a task that has run long pauses while another account's newer task runs
 * (`yieldTo`), so a short document is counted at its quiet speed while a flood of long ones runs beside it. A
 * hostile document ends its own task; the service is never at risk.
 *
 * A child that cannot even start (a runtime that needs more memory than the limit, a missing build) is an
 * outage, not a document's fault: logged at error, reported by `health()`, and every task is refused with a
 * 503-mapped error until a start succeeds again.
 */
export class DocumentSandbox {
  private readonly slots: Slot[];
  private readonly queue: FairQueue<Waiting>;
  private limits?: Promise<ChildLimits>;
  private outage?: { reason: string; retryAt: number };
  private startFailures = 0;
  private closed = false;

  constructor(
    readonly bounds: SandboxBounds,
    private readonly logger: Logger,
  ) {
    this.slots = Array.from({ length: bounds.processes }, () => ({ tasksDone: 0, busy: false }));
    this.queue = new FairQueue(bounds.maxWaitingPerAccount);
  }

  /** Counts the words of a document; a document that breaks a limit ends uncountable with the reason. */
  async analyse(account: string, path: string, mimeType: string): Promise<AnalysisResult> {
    const outcome = await this.submit(account, { kind: 'analyse', path, mimeType });
    if (outcome.kind === 'died') return { kind: 'uncountable', reason: 'out_of_memory', ...UNKNOWN_PAGES };
    if (outcome.kind === 'timed_out') return { kind: 'uncountable', reason: 'timeout', ...UNKNOWN_PAGES };
    return this.result(outcome, 'analyse');
  }

  /** The sandbox engine's translation (D11); a document it cannot translate within the limits is untranslatable. */
  async translate(account: string, files: TaskOf<'translate'>['files']): Promise<void> {
    const outcome = await this.submit(account, { kind: 'translate', files });
    if (outcome.kind === 'answered' && outcome.answer.kind !== 'done')
      throw new UntranslatableError(outcome.answer.message);
    if (outcome.kind !== 'answered') throw new UntranslatableError(exceeded(outcome));
    this.result(outcome, 'translate');
  }

  /** Writes the delivered copy of a translation with its certification footer (D20). */
  async stamp(account: string, task: Omit<TaskOf<'stamp'>, 'kind'>): Promise<TaskResults['stamp']> {
    const outcome = await this.submit(account, { kind: 'stamp', ...task });
    if (outcome.kind === 'answered' && outcome.answer.kind !== 'done')
      throw new DocumentRefusedError(outcome.answer.message);
    if (outcome.kind !== 'answered') throw new DocumentRefusedError(exceeded(outcome));
    return this.result(outcome, 'stamp');
  }

  health(): SandboxHealth {
    if (this.outage && Date.now() >= this.outage.retryAt) this.warm(); // a scrape or probe retries the start
    return { up: !this.outage, reason: this.outage?.reason, startFailures: this.startFailures };
  }

  /** The first child's process id, while one runs (tests sample its memory). */
  get pid(): number | undefined {
    const process = this.slots[0].process;
    return process?.alive ? process.pid : undefined;
  }

  /**
   * Starts a child in every idle slot that has none, so that no document waits for a start (on Node 24 about
   * half a second): at start, and after a child was replaced.
   */
  warm(): void {
    if (this.closed || (this.outage && Date.now() < this.outage.retryAt)) return;
    for (const slot of this.slots) {
      if (slot.busy || slot.process?.alive) continue;
      slot.busy = true;
      void this.childFor(slot)
        .then((process) => process.started())
        .then(
          () => this.recovered(),
          (error: Error) => this.failedToStart(error.message),
        )
        .finally(() => {
          slot.busy = false;
          this.pump();
        });
    }
  }

  /** Stops every child (shutdown); only a later task starts new ones. */
  close(): void {
    this.closed = true;
    for (const slot of this.slots) {
      slot.process?.kill();
      slot.process = undefined;
    }
  }

  private submit(account: string, task: SandboxTask): Promise<TaskOutcome> {
    this.closed = false;
    if (this.outage && Date.now() < this.outage.retryAt) return Promise.reject(new SandboxUnavailableError());
    return new Promise((resolve, reject) => {
      if (!this.queue.push(account, { task, resolve, reject })) return reject(new SandboxBusyError());
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const next = this.queue.take();
      if (!next) return this.warmWhenStarted();
      slot.busy = true;
      void this.execute(slot, next.lane, next.item).finally(() => {
        slot.busy = false;
        this.queue.done(next.lane);
        this.pump();
      });
    }
  }

  /** Once the sandbox has started children at all, a replaced one is started again while it is idle. */
  private warmWhenStarted(): void {
    if (this.limits) this.warm();
  }

  private async execute(slot: Slot, lane: string, waiting: Waiting): Promise<void> {
    let outcome: TaskOutcome;
    slot.running = { lane, since: Date.now(), yieldedMs: 0 };
    const resumeOthers = this.yieldTo(lane);
    try {
      outcome = await (await this.childFor(slot)).run(waiting.task, this.bounds.timeoutMs);
    } catch (error) {
      outcome = { kind: 'not_started', reason: (error as Error).message };
    } finally {
      slot.running = undefined;
      resumeOthers();
    }
    if (outcome.kind === 'not_started') {
      this.failedToStart(outcome.reason);
      slot.process = undefined;
      waiting.reject(new SandboxUnavailableError());
      for (const other of this.queue.drain()) other.reject(new SandboxUnavailableError());
      return;
    }
    this.recovered();
    slot.tasksDone++;
    if (this.mustReplace(slot, outcome)) {
      slot.process?.kill();
      slot.process = undefined;
    }
    waiting.resolve(outcome);
  }

  /**
   * Pauses the long tasks of other accounts while a task of `lane` starts and runs, for at most MAX_YIELD_MS: with
   * two cores, a flood's long documents would otherwise take half of the newcomer's. Answers the resume.
   */
  private yieldTo(lane: string): () => void {
    const now = Date.now();
    const yielding = this.slots.filter(({ running, process }) => {
      if (!running || running.lane === lane || !process?.warm) return false;
      const ran = now - running.since - running.yieldedMs;
      return ran >= LONG_TASK_MS && running.yieldedMs < ran;
    });
    const paused = yielding.map((slot) => ({ slot, process: slot.process!, running: slot.running! }));
    for (const { process } of paused) process.pause(MAX_YIELD_MS);
    let resumed = false;
    const resume = () => {
      if (resumed) return;
      resumed = true;
      clearTimeout(timer);
      const yielded = Date.now() - now;
      for (const { slot, process, running } of paused) {
        // The same task still: a later one of the slot has its own account of time.
        if (slot.running === running) running.yieldedMs += yielded;
        process.resume();
      }
    };
    const timer = setTimeout(resume, MAX_YIELD_MS);
    timer.unref();
    return resume;
  }

  /** The slot's child, started (under the measured limits) when it has none alive. */
  private async childFor(slot: Slot): Promise<SandboxProcess> {
    if (slot.process?.alive) return slot.process;
    const limits = await this.childLimits();
    slot.process = new SandboxProcess(limits, this.bounds.workerScript);
    slot.tasksDone = 0;
    return slot.process;
  }

  private childLimits(): Promise<ChildLimits> {
    this.limits ??= (async () => {
      const { runtimeMemoryMb, workMemoryMb, workerScript, startTimeoutMs } = this.bounds;
      const runtimeKb =
        runtimeMemoryMb !== undefined ? runtimeMemoryMb * 1024 : await measureRuntimeBaseline(workerScript);
      this.logger.info(
        { runtime_mb: Math.round(runtimeKb / 1024), work_mb: workMemoryMb },
        'document sandbox limits set',
      );
      // V8 collects garbage before its heap reaches half of what documents may use; the other half is for buffers.
      return { dataLimitKb: runtimeKb + workMemoryMb * 1024, heapMb: Math.floor(workMemoryMb / 2), startTimeoutMs };
    })();
    this.limits.catch(() => (this.limits = undefined)); // measured again at the next start
    return this.limits;
  }

  private mustReplace(slot: Slot, outcome: TaskOutcome): boolean {
    if (outcome.kind !== 'answered') return true;
    return slot.tasksDone >= TASKS_PER_PROCESS || outcome.rssBytes > (this.bounds.workMemoryMb * 1024 * 1024) / 2;
  }

  private failedToStart(reason: string): void {
    this.startFailures++;
    if (!this.outage)
      this.logger.error(
        { reason },
        'document sandbox outage: no child process can start; documents cannot be analysed, translated or stamped',
      );
    this.outage = { reason, retryAt: Date.now() + OUTAGE_RETRY_SECONDS * 1000 };
  }

  private recovered(): void {
    if (!this.outage) return;
    this.outage = undefined;
    this.logger.info('document sandbox recovered: child processes start again');
  }

  private result<K extends TaskKind>(outcome: TaskOutcome, kind: K): TaskResults[K] {
    if (outcome.kind !== 'answered' || outcome.answer.kind !== 'done')
      throw new Error(`The document sandbox's ${kind} task did not finish`);
    return outcome.answer.result as TaskResults[K];
  }
}

const exceeded = (outcome: TaskOutcome): string =>
  outcome.kind === 'timed_out'
    ? 'The document takes longer to process than the limit.'
    : 'The document needs more memory to process than the limit.';
