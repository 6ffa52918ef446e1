export enum ServiceType {
  CERTIFIED = 'certified',
  STANDARD = 'standard',
}

export enum BillingUnit {
  PAGE = 'page',
  WORD = 'word',
  HOUR = 'hour',
}

/** What documents are counted in: pages for certified work, words for standard (hours are interpreting's). */
export type DocumentUnit = BillingUnit.PAGE | BillingUnit.WORD;

export enum AddonPricingType {
  FLAT = 'flat',
  PER_COPY = 'per_copy',
}

export enum InterpretationMode {
  ON_SITE = 'on_site',
  VIDEO_REMOTE = 'video_remote',
  SIGHT_TRANSLATION = 'sight_translation',
  ASL = 'asl',
  AI_CONFERENCE = 'ai_conference',
}
