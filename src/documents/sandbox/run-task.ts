import { UntranslatableError } from '../../shared/errors';
import { analyseDocument } from '../analysis/analyse-document';
import { stampTranslation } from '../footers/translation-footer';
import { DOCUMENT_LIMITS } from '../limits';
import { writeSandboxTranslation } from '../sandbox-translation';
import type { SandboxTask, TaskAnswer } from './tasks';

/** Runs one task in the child. Never throws: a document that fails the work is an answer, not a crash. */
export async function runTask(task: SandboxTask): Promise<TaskAnswer> {
  try {
    switch (task.kind) {
      case 'analyse':
        return { kind: 'done', result: await analyseDocument(task.path, task.mimeType) };
      case 'translate':
        await writeSandboxTranslation(task.files, DOCUMENT_LIMITS.zip);
        return { kind: 'done', result: null };
      case 'stamp':
        return { kind: 'done', result: await stampTranslation(task.mimeType, task.input, task.output, task.facts) };
    }
  } catch (error) {
    if (error instanceof UntranslatableError) return { kind: 'untranslatable', message: error.message };
    return { kind: 'refused', message: error instanceof Error ? error.message : String(error) };
  }
}
