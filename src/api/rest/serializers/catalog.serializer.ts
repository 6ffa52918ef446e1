import type { Pricing } from '../../../domain/catalog/catalog.service';
import type { ServiceType } from '../../../domain/catalog/catalog.enums';
import type { Language } from '../../../domain/catalog/language';
import { BOOKING_POLICY } from '../../../domain/bookings/cancellation-policy';
import type { LanguageJson, PricingJson } from '../responses/catalog.response';

/** A language as `listLanguages` answers it, with the services it can be ordered in (D29). */
export const serializeLanguage = (language: Language, services: ServiceType[]): LanguageJson => ({
  code: language.code,
  name: language.name,
  services,
});

/** The rates and add-ons `getPricing` answers, `interpretation` included (D7), and the bookings' cancellation policy (D32). */
export const serializePricing = (pricing: Pricing): PricingJson => ({
  services: pricing.services.map((rate) => ({
    service_type: rate.serviceType,
    unit: rate.unit,
    unit_price_cents: rate.unitPriceCents,
    currency: rate.currency,
  })),
  addons: pricing.addons.map((addon) => ({
    code: addon.code,
    name: addon.name,
    pricing_type: addon.pricingType,
    price_cents: addon.priceCents,
    currency: addon.currency,
  })),
  interpretation: pricing.interpretation.map((rate) => ({
    mode: rate.mode,
    unit: rate.unit,
    unit_price_cents: rate.unitPriceCents,
    minimum_hours: rate.minimumHours,
    currency: rate.currency,
  })),
  booking_policy: {
    free_cancellation_statuses: [...BOOKING_POLICY.freeCancellationStatuses],
    tiers: BOOKING_POLICY.tiers.map((tier) => ({
      hours_before_start_at_least: tier.hoursBeforeStartAtLeast,
      refund_percent: tier.refundPercent,
    })),
    waivable_by_staff: BOOKING_POLICY.waivableByStaff,
  },
});
