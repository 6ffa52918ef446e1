import type { LanguageSupport } from '../../providers/translation/language-support';
import type { EngineLanguageSource } from '../../providers/translation/translation-engine';
import type { Logger } from '../../shared/logger';
import { ProviderUnavailableError } from '../../shared/errors';
import { AnalysisStatus } from '../files/file.entity';
import { ServiceType } from '../catalog/catalog.enums';

/** Until the engine's lists are read, they are asked for again this often, and standard quotes answer 503 meanwhile. */
const RETRY_SECONDS = 30;
/** A quote arriving while the lists are being read waits this long for them before its 503. */
const WAIT_FOR_LISTS_MS = 2_000;

const TO_CERTIFIED = 'order certified translation, or upload a text document';

/** What a standard quote needs to know of a file. */
export interface StandardFile {
  analysisStatus: AnalysisStatus;
  scannedPages: number | null;
}

/**
 * Standard (machine) translation is sold only where it can be delivered (D29): for languages the configured engine
 * reads and writes (DeepL's lists, read from the engine at start and kept; the sandbox engine has a copy of them),
 * and for files whose every page has text. The lists are read in the background: a DeepL outage at start does not
 * stop the service; the lists are asked for again every 30 s, and standard quotes answer 503 until they are known.
 */
export class StandardOffer {
  private support?: LanguageSupport;
  private loading?: Promise<void>;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly deps: {
      engine: EngineLanguageSource;
      languageName: (code: string) => string;
      logger: Logger;
      retrySeconds?: number;
    },
  ) {}

  /** Starts reading the engine's lists; never throws. */
  start(): void {
    this.loading ??= this.load();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  /** The services a catalog language can be ordered in; standard only once the engine's lists say so. */
  servicesOf(code: string): ServiceType[] {
    return this.support?.translates(code) ? [ServiceType.CERTIFIED, ServiceType.STANDARD] : [ServiceType.CERTIFIED];
  }

  /**
   * Field errors (422) for a standard quote that could not be delivered: a language the engine does not translate,
   * a file with scanned pages or no text. Throws 503 while the engine's lists are unknown.
   */
  async refusals(source: string, target: string, files: StandardFile[]): Promise<Record<string, string[]>> {
    const support = await this.languages();
    const errors: Record<string, string[]> = {};
    if (!support.source(source))
      errors.source_language = [
        `Standard translation from ${this.deps.languageName(source)} is not available: ${TO_CERTIFIED}.`,
      ];
    if (!support.target(target))
      errors.target_language = [
        `Standard translation into ${this.deps.languageName(target)} is not available: ${TO_CERTIFIED}.`,
      ];
    const fileErrors = files.flatMap((file, index) => {
      if (file.analysisStatus !== AnalysisStatus.COUNTED)
        return [
          `The file_ids.${index} file has no text that standard (machine) translation can read: ${TO_CERTIFIED}.`,
        ];
      if (file.scannedPages)
        return [
          `The file_ids.${index} file has ${file.scannedPages} scanned page${file.scannedPages === 1 ? '' : 's'} that standard (machine) translation cannot read: ${TO_CERTIFIED}.`,
        ];
      return [];
    });
    if (fileErrors.length) errors.file_ids = fileErrors;
    return errors;
  }

  private async languages(): Promise<LanguageSupport> {
    if (!this.support && this.loading)
      await Promise.race([this.loading, new Promise((resolve) => setTimeout(resolve, WAIT_FOR_LISTS_MS).unref())]);
    if (!this.support) throw new ProviderUnavailableError('Translation engine', this.retrySeconds);
    return this.support;
  }

  private get retrySeconds(): number {
    return this.deps.retrySeconds ?? RETRY_SECONDS;
  }

  private async load(): Promise<void> {
    try {
      this.support = await this.deps.engine.languages();
      this.deps.logger.info('translation engine languages read');
    } catch (error) {
      this.deps.logger.warn(
        { err: error, retry_in_seconds: this.retrySeconds },
        'translation engine languages unavailable: standard quotes answer 503 until they are read',
      );
      if (!this.stopped)
        this.retry = setTimeout(() => void (this.loading = this.load()), this.retrySeconds * 1000).unref();
    }
  }
}
