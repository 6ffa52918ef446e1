import {
  AuthorizationError,
  DeepLError,
  QuotaExceededError,
  Translator,
  type DocumentHandle,
  type SourceLanguageCode,
  type TargetLanguageCode,
} from 'deepl-node';
import { readFile } from 'node:fs/promises';
import { EXTENSIONS, hasTextLayer } from '../../documents/formats';
import { UntranslatableError } from '../../shared/errors';
import { LanguageSupport } from './language-support';
import type { EngineCheckpoint, EngineLanguageSource, TranslationEngine, TranslationJob } from './translation-engine';

/**
 * DeepL document translation through the official client (D11): upload, poll, download; the output keeps the
 * input's format. The document's id and key are handed to the checkpoint right after the upload, so a rerun polls
 * that document again instead of uploading (and paying for) it twice; one DeepL no longer knows (downloaded
 * already, or expired) is uploaded again. Quota, authorization and server failures are transient for the job (it
 * retries, then holds); a language pair DeepL refuses is not (the order goes on hold at once).
 */
export class DeepLTranslationEngine implements TranslationEngine, EngineLanguageSource {
  readonly name = 'deepl';
  private readonly translator: Translator;
  /** DeepL's language lists, read once (D29): what quotes offer is what uploads send. */
  private support?: LanguageSupport;

  constructor(authKey: string, options: { serverUrl?: string; maxRetries?: number } = {}) {
    this.translator = new Translator(authKey, {
      serverUrl: options.serverUrl,
      maxRetries: options.maxRetries ?? 3,
      minTimeout: 10_000,
    });
  }

  async translate(job: TranslationJob, checkpoint?: EngineCheckpoint): Promise<void> {
    if (!hasTextLayer(job.mimeType))
      throw new UntranslatableError('The document is an image: there is no text to translate.');
    try {
      if (checkpoint?.resumeFrom) {
        try {
          return await this.finish(JSON.parse(checkpoint.resumeFrom) as DocumentHandle, job.outputPath);
        } catch (error) {
          // DeepL no longer has it (downloaded already, or expired): it is uploaded again.
          if (!(error instanceof DeepLError && error.message.startsWith('Not found'))) throw error;
        }
      }
      const handle = await this.upload(job);
      await checkpoint?.accepted(JSON.stringify({ documentId: handle.documentId, documentKey: handle.documentKey }));
      await this.finish(handle, job.outputPath);
    } catch (error) {
      if (error instanceof QuotaExceededError || error instanceof AuthorizationError) throw error;
      if (error instanceof DeepLError && /bad request|not supported/i.test(error.message)) {
        throw new UntranslatableError(`DeepL cannot translate this document or language pair (${error.message}).`);
      }
      throw error;
    }
  }

  async languages(): Promise<LanguageSupport> {
    if (!this.support) {
      const [sources, targets] = await Promise.all([
        this.translator.getSourceLanguages(),
        this.translator.getTargetLanguages(),
      ]);
      this.support = new LanguageSupport({
        sources: sources.map((language) => language.code),
        targets: targets.map((language) => language.code),
      });
    }
    return this.support;
  }

  private async upload(job: TranslationJob): Promise<DocumentHandle> {
    const support = await this.languages();
    // A pair quotes no longer offer (DeepL dropped a language since) is sent as it is, and DeepL's refusal holds the order.
    const source = (support.source(job.sourceLanguage) ?? job.sourceLanguage) as SourceLanguageCode;
    const target = (support.target(job.targetLanguage) ?? job.targetLanguage) as TargetLanguageCode;
    // DeepL reads the format from the file name. Given a path, deepl-node sends the path's own name (ours has no
    // extension), so the bytes go as a Buffer with a name that has one (uploads are at most 20 MB).
    return this.translator.uploadDocument(await readFile(job.path), source, target, {
      filename: `document.${EXTENSIONS[job.mimeType]}`,
    });
  }

  /** Waits for the document's translation and writes it to `outputPath`. */
  private async finish(handle: DocumentHandle, outputPath: string): Promise<void> {
    await this.translator.isDocumentTranslationComplete(handle);
    await this.translator.downloadDocument(handle, outputPath);
  }
}
