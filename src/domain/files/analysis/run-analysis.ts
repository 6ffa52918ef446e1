import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { REPO_ROOT } from '../../../db/paths';
import type { AnalysisResult } from './analysis-result';

export interface AnalysisBounds {
  timeoutMs: number;
  maxMemoryMb: number;
}

export const DEFAULT_BOUNDS: AnalysisBounds = { timeoutMs: 120_000, maxMemoryMb: 512 };

/** Worker threads run JavaScript: always the compiled worker (under jest too; `npm test` builds first). */
const WORKER = join(REPO_ROOT, 'dist', 'src', 'domain', 'files', 'analysis', 'analysis.worker.js');

/**
 * Analyses a document in a worker thread with a heap limit and a deadline: a document that would take too
 * long or too much memory ends uncountable, and the process itself is never at risk.
 */
export function runAnalysis(path: string, mimeType: string, bounds: AnalysisBounds = DEFAULT_BOUNDS): Promise<AnalysisResult> {
  if (!existsSync(WORKER)) throw new Error(`The analysis worker is not built (${WORKER}): run npm run build.`);
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, {
      workerData: { path, mimeType },
      resourceLimits: { maxOldGenerationSizeMb: bounds.maxMemoryMb, maxYoungGenerationSizeMb: 64 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const settle = (result: AnalysisResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => settle({ kind: 'uncountable', reason: 'timeout' }), bounds.timeoutMs);
    worker.once('message', (result: AnalysisResult) => settle(result));
    worker.once('error', (error: Error & { code?: string }) =>
      settle({ kind: 'uncountable', reason: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out_of_memory' : 'corrupt' }),
    );
    worker.once('exit', () => settle({ kind: 'uncountable', reason: 'corrupt' }));
  });
}
