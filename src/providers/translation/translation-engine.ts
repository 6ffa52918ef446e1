export interface TranslationJob {
  /** A local copy of the source document. */
  path: string;
  mimeType: string;
  sourceLanguage: string;
  targetLanguage: string;
  /** Where the engine writes the translation, in the same format as the source. */
  outputPath: string;
}

/** The document has nothing the engine can translate (an image, a scan without text): a person must look. */
export class UntranslatableError extends Error {}

/**
 * A translation engine (D11): `sandbox` (deterministic, marked output) or `deepl`. Any other failure is
 * transient: the job is retried with backoff and, when it keeps failing, the order goes on hold.
 */
export interface TranslationEngine {
  readonly name: string;
  translate(job: TranslationJob): Promise<void>;
}
