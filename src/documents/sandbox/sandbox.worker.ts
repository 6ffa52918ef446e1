import { readFileSync } from 'node:fs';
import { runTask } from './run-task';
import type { ChildMessage, SandboxTask } from './tasks';

/**
 * The document sandbox's child process (D25): started under a data-segment limit by sandbox-process.ts and kept
 * warm, it does one task per message and answers with the outcome and its own memory use, so the parent can
 * recycle it. It leaves with its parent: a service killed with SIGKILL leaves no orphan behind.
 *
 * Started with `--baseline`, it loads what a working child loads, reports the data segment that took (the
 * runtime's own need, which differs between Node versions) and exits: the parent sizes every child's limit as
 * that plus the memory documents may use.
 */
const send = (message: ChildMessage | { kind: 'baseline'; dataKb: number }) => process.send!(message);

/** VmData, what RLIMIT_DATA is checked against. */
const dataSegmentKb = (): number => Number(/VmData:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);

process.on('disconnect', () => process.exit(0));
process.on('message', (task: SandboxTask) => {
  void runTask(task).then((answer) => send({ kind: 'answer', answer, rssBytes: process.memoryUsage().rss }));
});
// pdf.js is the slow part of a start: load it before saying ready, so the first document does not wait for it.
void import('unpdf').then(() => {
  if (process.argv.includes('--baseline')) {
    send({ kind: 'baseline', dataKb: dataSegmentKb() });
    process.disconnect();
  } else send({ kind: 'ready' });
});
