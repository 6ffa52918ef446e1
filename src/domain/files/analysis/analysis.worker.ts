import { parentPort, workerData } from 'node:worker_threads';
import { analyseDocument } from './analyse-document';

/** Runs one analysis in its own thread, so a hostile document can exhaust only this thread's limits. */
const { path, mimeType } = workerData as { path: string; mimeType: string };
analyseDocument(path, mimeType).then(
  (result) => parentPort!.postMessage(result),
  () => parentPort!.postMessage({ kind: 'uncountable', reason: 'corrupt' }),
);
