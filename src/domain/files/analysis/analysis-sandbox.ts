import type { AnalysisResult } from './analysis-result';
import { AnalysisProcess, type AnalysisJob, type JobOutcome } from './analysis-process';

export interface AnalysisBounds {
  timeoutMs: number;
  /** The whole analysis process's memory (ANALYSIS_MAX_MEMORY_MB), not only its JavaScript heap (D25). */
  maxMemoryMb: number;
  /** The compiled worker the child runs. */
  workerScript: string;
}

export const DEFAULT_LIMITS = { timeoutMs: 120_000, maxMemoryMb: 512 };

/** A warm child is replaced after this many documents, so that a slow leak in a parser cannot build up. */
const JOBS_PER_PROCESS = 100;

/**
 * Document analysis in a warm child process under a hard memory ceiling and a deadline (D25). One child at a
 * time, one document at a time, so the service's analysis never holds more than the ceiling, however many
 * documents wait. The child is reused across documents (starting one costs more than most analyses) and
 * replaced when it died, was killed at the deadline, analysed JOBS_PER_PROCESS documents, or kept more than
 * half the ceiling after a document. A hostile document ends uncountable; the service is never at risk.
 */
export class AnalysisSandbox {
  private process?: AnalysisProcess;
  private jobsDone = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly bounds: AnalysisBounds) {}

  /** The running child's process id, if one is running (tests sample its memory). */
  get pid(): number | undefined {
    return this.process?.alive ? this.process.pid : undefined;
  }

  analyse(path: string, mimeType: string): Promise<AnalysisResult> {
    const turn = this.queue.then(() => this.runJob({ path, mimeType }));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Starts the child now, if none runs, so that the first document does not wait for it. */
  warm(): void {
    if (!this.process?.alive) this.startProcess();
  }

  /** Stops the child (shutdown); a later analysis starts a new one. */
  close(): void {
    this.process?.kill();
    this.process = undefined;
  }

  private async runJob(job: AnalysisJob): Promise<AnalysisResult> {
    this.warm();
    const outcome = await this.process!.run(job, this.bounds.timeoutMs);
    this.jobsDone++;
    if (this.mustReplace(outcome)) {
      this.close();
      this.startProcess(); // warm again before the next document arrives
    }
    return resultOf(outcome);
  }

  private startProcess(): void {
    this.process = new AnalysisProcess(this.bounds.maxMemoryMb, this.bounds.workerScript);
    this.jobsDone = 0;
  }

  private mustReplace(outcome: JobOutcome): boolean {
    if (outcome.kind !== 'answered') return true;
    return this.jobsDone >= JOBS_PER_PROCESS || outcome.rssBytes > (this.bounds.maxMemoryMb * 1024 * 1024) / 2;
  }
}

/** A child that died mid-document ran into the memory limit: the only way it dies when its parser does not. */
function resultOf(outcome: JobOutcome): AnalysisResult {
  if (outcome.kind === 'answered') return outcome.result;
  return { kind: 'uncountable', reason: outcome.kind === 'timed_out' ? 'timeout' : 'out_of_memory' };
}
