import type { AnalysisResult } from '../analysis/analysis-result';
import type { FooterFacts } from '../footers/footer-line';
import type { TranslationFiles } from '../sandbox-translation';

/** The work the document sandbox's child does on a client's document, each a message to it (D25). */
export type SandboxTask =
  | { kind: 'analyse'; path: string; mimeType: string }
  | { kind: 'translate'; files: TranslationFiles }
  | { kind: 'stamp'; mimeType: string; input: string; output: string; facts: FooterFacts };

/** What each kind of task answers when it runs to its end. */
export interface TaskResults {
  analyse: AnalysisResult;
  translate: null;
  stamp: { pages: number | null };
}

export type TaskKind = SandboxTask['kind'];
export type TaskOf<K extends TaskKind> = Extract<SandboxTask, { kind: K }>;

/**
 * A task's end as the child reports it: its result, or why it refused the document. `untranslatable` is the
 * sandbox engine's refusal of a document with nothing to translate (D11); `refused`, a document that breaks a
 * structural limit or cannot be read.
 */
export type TaskAnswer =
  | { kind: 'done'; result: TaskResults[TaskKind] }
  | { kind: 'untranslatable'; message: string }
  | { kind: 'refused'; message: string };

/** Messages from the child: ready after its start, then one answer per task with its memory at the end. */
export type ChildMessage = { kind: 'ready' } | { kind: 'answer'; answer: TaskAnswer; rssBytes: number };
