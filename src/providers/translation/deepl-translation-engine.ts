import { AuthorizationError, DeepLError, QuotaExceededError, Translator, type SourceLanguageCode, type TargetLanguageCode } from 'deepl-node';
import { readFile } from 'node:fs/promises';
import { DOCX, hasTextLayer, PDF } from '../../documents/formats';
import { UntranslatableError } from '../../shared/errors';
import type { TranslationEngine, TranslationJob } from './translation-engine';

/** DeepL wants a regional or script variant for some targets; our catalog's bare codes map to the usual one. */
const TARGET_DEFAULTS: Record<string, string> = { en: 'en-US', pt: 'pt-PT', zh: 'zh-Hans' };
const EXTENSIONS: Record<string, string> = { [PDF]: 'pdf', [DOCX]: 'docx' };

/**
 * DeepL document translation through the official client (D11): upload, poll, download; the output keeps the
 * input's format. Quota, authorization and server failures are transient for the job (it retries, then holds);
 * a language pair DeepL refuses is not (the order goes on hold at once).
 */
export class DeepLTranslationEngine implements TranslationEngine {
  readonly name = 'deepl';
  private readonly translator: Translator;

  constructor(authKey: string, options: { serverUrl?: string; maxRetries?: number } = {}) {
    this.translator = new Translator(authKey, { serverUrl: options.serverUrl, maxRetries: options.maxRetries ?? 3, minTimeout: 10_000 });
  }

  async translate(job: TranslationJob): Promise<void> {
    if (!hasTextLayer(job.mimeType)) throw new UntranslatableError('The document is an image: there is no text to translate.');
    const source = job.sourceLanguage.split('-')[0].toLowerCase() as SourceLanguageCode;
    const target = (TARGET_DEFAULTS[job.targetLanguage.toLowerCase()] ?? job.targetLanguage) as TargetLanguageCode;
    try {
      // DeepL reads the format from the file name. Given a path, deepl-node sends the path's own name (ours has no
      // extension), so the bytes go as a Buffer with a name that has one (uploads are at most 20 MB).
      await this.translator.translateDocument(await readFile(job.path), job.outputPath, source, target, { filename: `document.${EXTENSIONS[job.mimeType]}` });
    } catch (error) {
      if (error instanceof QuotaExceededError || error instanceof AuthorizationError) throw error;
      if (error instanceof DeepLError && /bad request|not supported/i.test(error.message)) {
        throw new UntranslatableError(`DeepL cannot translate this document or language pair (${error.message}).`);
      }
      throw error;
    }
  }
}
