import type { DocumentSandbox } from '../../documents/sandbox/document-sandbox';
import { DEEPL_LANGUAGES } from './deepl-language-lists';
import type { LanguageSupport } from './language-support';
import type { EngineLanguageSource, TranslationEngine, TranslationJob } from './translation-engine';

/** Every sandbox translation waits its turn in one lane of the document sandbox, beside the accounts' analyses. */
const LANE = 'translations';

/**
 * The sandbox engine (D11): deterministic and clearly marked, in the same format as the input
 * (src/documents/sandbox-translation.ts), written by the document sandbox's child under its memory ceiling and
 * deadline (D25), never in the service process. Images and text-less documents are untranslatable.
 */
export class SandboxTranslationEngine implements TranslationEngine, EngineLanguageSource {
  readonly name = 'sandbox';

  constructor(private readonly documents: DocumentSandbox) {}

  translate(job: TranslationJob): Promise<void> {
    return this.documents.translate(LANE, job);
  }

  /** DeepL's own lists, so the sandbox offers and refuses exactly what production would (D29). */
  languages(): Promise<LanguageSupport> {
    return Promise.resolve(DEEPL_LANGUAGES);
  }
}
