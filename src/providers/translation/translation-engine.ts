import type { LanguageSupport } from './language-support';

export interface TranslationJob {
  /** A local copy of the source document. */
  path: string;
  mimeType: string;
  sourceLanguage: string;
  targetLanguage: string;
  /** Where the engine writes the translation, in the same format as the source. */
  outputPath: string;
}

/**
 * Where an engine that works asynchronously (upload, wait, download) keeps its handle on a document, so that a rerun
 * of the job after a crash or a failure picks the same document up instead of sending it again (D11).
 */
export interface EngineCheckpoint {
  /** The engine's handle on this document from an earlier run that did not finish, if any. */
  resumeFrom?: string;
  /** Keeps the handle once the engine has the document, before the wait for its translation. */
  accepted(reference: string): Promise<void>;
}

/**
 * A translation engine (D11): `sandbox` (deterministic, marked output) or `deepl`. A document with nothing to
 * translate throws `UntranslatableError` (`src/shared/errors.ts`); any other failure is transient: the job is
 * retried with backoff and, when it keeps failing, the order goes on hold.
 */
export interface TranslationEngine {
  readonly name: string;
  translate(job: TranslationJob, checkpoint?: EngineCheckpoint): Promise<void>;
}

/** What the configured engine can translate (D29): quotes offer standard translation only there. */
export interface EngineLanguageSource {
  /** The languages it reads and writes; rejects while the engine cannot say (DeepL unreachable). */
  languages(): Promise<LanguageSupport>;
}
