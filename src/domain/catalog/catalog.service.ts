import { LockMode, type EntityManager } from '@mikro-orm/core';
import { requireStaff } from '../accounts/authentication.service';
import type { AuditService } from '../audit/audit.service';
import type { Ctx } from '../shared/context';
import { ValidationError } from '../../shared/errors';
import { Validator } from '../shared/validation';
import { InterpretationMode, ServiceType } from './catalog.enums';
import { LANGUAGE_CODES } from './language-codes';
import { languageName } from './language-names';
import { Language } from './language';
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

/** The largest price a rate card line may be set to, in cents ($100,000): a guard against a typo's extra zeros. */
const MAX_PRICE_CENTS = 10_000_000;

export interface RateChange {
  service_type?: unknown;
  addon_code?: unknown;
  interpretation_mode?: unknown;
  price_cents?: unknown;
}

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
  async updateRate(ctx: Ctx, change: RateChange): Promise<Pricing> {
    requireStaff(ctx.actor, 'updateRate');
    const v = new Validator(change as Record<string, unknown>);
    const targets = (['service_type', 'addon_code', 'interpretation_mode'] as const).filter(
      (field) => change[field] !== undefined && change[field] !== null,
    );
    if (targets.length !== 1) v.fail('rate', 'Name exactly one rate: service_type, addon_code or interpretation_mode.');
    const serviceType = v.oneOf('service_type', Object.values(ServiceType));
    const addonCode = v.string('addon_code', { max: 50 });
    const mode = v.oneOf('interpretation_mode', Object.values(InterpretationMode));
    const price = v.integer('price_cents', { required: true, min: 0, max: MAX_PRICE_CENTS });
    v.done();

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
      if (line instanceof Addon) line.priceCents = price!;
      else line.unitPriceCents = price!;
      this.deps.audit.record(em, ctx.actor, {
        action: 'rate.update',
        ...resource,
        details: { from_cents: before, to_cents: price },
      });
    });
    return this.pricing(ctx.em);
  }
}
