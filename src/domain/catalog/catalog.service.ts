import { LockMode, type EntityManager } from '@mikro-orm/core';
import { requireStaff } from '../identity/guards';
import type { AuditService } from '../audit/audit.service';
import type { Ctx } from '../identity/context';
import { ValidationError } from '../../shared/errors';
import { LANGUAGE_CODES } from './language-codes';
import { languageName } from './language-names';
import { Language } from './language';
import type { UpdateRate } from './rate.commands';
import { Addon, InterpretationRate, ServiceRate } from './rates.entity';

export interface Pricing {
  services: ServiceRate[];
  addons: Addon[];
  interpretation: InterpretationRate[];
}

/** Built once: CLDR names, sorted by name (D6). */
const languages: readonly Language[] = LANGUAGE_CODES.map((code) =>
  Object.assign(new Language(), { code, name: languageName(code) }),
).sort((a, b) => a.name.localeCompare(b.name, 'en'));

const byLowerCode = new Map(languages.map((language) => [language.code.toLowerCase(), language]));

/** Case-insensitive match; answers the catalog's language, or undefined when the catalog lacks it. */
export const findLanguage = (code: string): Language | undefined => byLowerCode.get(code.trim().toLowerCase());

/** The language and pricing catalog; the same code answers both doors. */
export class CatalogService {
  constructor(private readonly deps: { audit: AuditService }) {}

  listLanguages(): readonly Language[] {
    return languages;
  }

  /** Case-insensitive match; answers the canonical code, or undefined when the catalog lacks it. */
  findLanguage(code: string): Language | undefined {
    return findLanguage(code);
  }

  async pricing(em: EntityManager): Promise<Pricing> {
    const [services, addons, interpretation] = await Promise.all([
      em.find(ServiceRate, {}, { orderBy: { position: 'asc' } }),
      em.find(Addon, {}, { orderBy: { position: 'asc' } }),
      em.find(InterpretationRate, {}, { orderBy: { position: 'asc' } }),
    ]);
    return { services, addons, interpretation };
  }

  /**
   * Admins set the price of one rate card line, named by exactly one of service_type, addon_code or
   * interpretation_mode. Quotes and bookings keep the prices they were made with (D7); the change is audited
   * with the old and new price.
   */
  async updateRate(ctx: Ctx, change: UpdateRate): Promise<Pricing> {
    requireStaff(ctx.actor, 'updateRate');
    const { serviceType, addonCode, interpretationMode: mode, priceCents: price } = change;
    await ctx.em.transactional(async (em) => {
      const lock = { lockMode: LockMode.PESSIMISTIC_WRITE } as const;
      const { line, ...resource } = serviceType
        ? {
            resourceType: 'service_rate',
            resourceId: serviceType,
            line: await em.findOne(ServiceRate, { serviceType }, lock),
          }
        : mode
          ? {
              resourceType: 'interpretation_rate',
              resourceId: mode,
              line: await em.findOne(InterpretationRate, { mode }, lock),
            }
          : {
              resourceType: 'addon',
              resourceId: addonCode!,
              line: await em.findOne(Addon, { code: addonCode! }, lock),
            };
      if (!line) throw ValidationError.of('addon_code', 'The selected addon code is invalid.');
      const before = line instanceof Addon ? line.priceCents : line.unitPriceCents;
      if (line instanceof Addon) line.priceCents = price;
      else line.unitPriceCents = price;
      this.deps.audit.record(em, ctx.actor, {
        action: 'rate.update',
        ...resource,
        details: { from_cents: before, to_cents: price },
      });
    });
    return this.pricing(ctx.em);
  }
}
