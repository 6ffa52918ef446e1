import { analyseDocument } from './analyse-document';
import type { AnalysisJob, WorkerMessage } from './analysis-process';

/**
 * The analysis child process (D25): started under a data-segment limit by analysis-process.ts and kept warm,
 * it analyses one document per message and answers with the result and its own memory use, so the parent can
 * recycle it. It leaves with its parent: a service killed with SIGKILL leaves no orphan behind.
 */
const send = (message: WorkerMessage) => process.send!(message);

process.on('disconnect', () => process.exit(0));
process.on('message', (job: AnalysisJob) => {
  void analyseDocument(job.path, job.mimeType).then((result) => send({ kind: 'result', result, rssBytes: process.memoryUsage().rss }));
});
// pdf.js is the slow part of a start: load it before saying ready, so the first document does not wait for it.
void import('unpdf').then(() => send({ kind: 'ready' }));
