/** An engine's languages, as its own codes (DeepL's: `de`, `en-US`, `zh-HANS`); matched without regard to case. */
export interface EngineLanguages {
  sources: readonly string[];
  targets: readonly string[];
}

/** The usual variant of a bare target where the engine wants a regional or script one. */
const TARGET_DEFAULTS: Record<string, string> = { en: 'en-US', pt: 'pt-PT', zh: 'zh-Hans' };

/**
 * Which catalog codes (BCP 47, D6) an engine translates, and the engine's code for each (D29). A source is read by
 * its language alone (`es-MX` as `es`). A target is written as its own code, else its script (`zh-HK` as
 * `zh-Hant`), else the usual variant of its language (`en` as `en-US`), else its language (`de-AT` as `de`).
 */
export class LanguageSupport {
  private readonly sources: Map<string, string>;
  private readonly targets: Map<string, string>;

  constructor(lists: EngineLanguages) {
    this.sources = new Map(lists.sources.map((code) => [code.toLowerCase(), code]));
    this.targets = new Map(lists.targets.map((code) => [code.toLowerCase(), code]));
  }

  source(code: string): string | undefined {
    return this.sources.get(new Intl.Locale(code).language);
  }

  target(code: string): string | undefined {
    const locale = new Intl.Locale(code);
    const { language, script } = locale.maximize();
    const candidates = [code, script && `${language}-${script}`, TARGET_DEFAULTS[locale.language], locale.language];
    for (const candidate of candidates) {
      const found = candidate && this.targets.get(candidate.toLowerCase());
      if (found) return found;
    }
    return undefined;
  }

  /** Usable on both sides: a language that says it offers standard translation pairs with any other that does. */
  translates(code: string): boolean {
    return this.source(code) !== undefined && this.target(code) !== undefined;
  }
}
