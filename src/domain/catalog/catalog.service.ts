import type { EntityManager } from '@mikro-orm/core';
import { LANGUAGE_CODES } from './language-codes';
import { Language } from './language';
import { Addon, InterpretationRate, ServiceRate } from './rates.entity';

export interface Pricing {
  services: ServiceRate[];
  addons: Addon[];
  interpretation: InterpretationRate[];
}

const displayNames = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });

/** Built once: CLDR names, sorted by name (D6). */
const languages: readonly Language[] = LANGUAGE_CODES.map((code) =>
  Object.assign(new Language(), { code, name: displayNames.of(code) ?? code }),
).sort((a, b) => a.name.localeCompare(b.name, 'en'));

const byLowerCode = new Map(languages.map((language) => [language.code.toLowerCase(), language]));

/** The language and pricing catalog; the same code answers both doors. */
export class CatalogService {
  listLanguages(): readonly Language[] {
    return languages;
  }

  /** Case-insensitive match; answers the canonical code, or undefined when the catalog lacks it. */
  findLanguage(code: string): Language | undefined {
    return byLowerCode.get(code.trim().toLowerCase());
  }

  async pricing(em: EntityManager): Promise<Pricing> {
    const [services, addons, interpretation] = await Promise.all([
      em.find(ServiceRate, {}, { orderBy: { position: 'asc' } }),
      em.find(Addon, {}, { orderBy: { position: 'asc' } }),
      em.find(InterpretationRate, {}, { orderBy: { position: 'asc' } }),
    ]);
    return { services, addons, interpretation };
  }
}
