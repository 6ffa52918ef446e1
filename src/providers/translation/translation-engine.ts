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
 * A translation engine (D11): `sandbox` (deterministic, marked output) or `deepl`. A document with nothing to
 * translate throws `UntranslatableError` (`src/shared/errors.ts`); any other failure is transient: the job is
 * retried with backoff and, when it keeps failing, the order goes on hold.
 */
export interface TranslationEngine {
  readonly name: string;
  translate(job: TranslationJob): Promise<void>;
}
