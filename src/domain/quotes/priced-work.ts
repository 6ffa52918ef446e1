import { Entity, Enum, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { BillingUnit, ServiceType, type DocumentUnit } from '../catalog/catalog.enums';
import { PlacedBy } from '../identity/placed-by';
import { QuotedAddon } from './quoted-addon';
import { ShippingAddress } from './shipping-address';

/** The longest `instructions` a quote takes (D30). */
export const MAX_INSTRUCTIONS = 2000;
/** The longest purchase order number a quote takes (D31). */
export const MAX_PURCHASE_ORDER = 64;

/**
 * What a quote prices and its order inherits, column for column: the work (service, languages, units) and the
 * prices it was made with (D7: a later rate change never alters either).
 */
@ObjectType()
@Entity({ abstract: true })
export abstract class PricedWork {
  @Field(() => PlacedBy, { description: 'Who made it: the API key or a member, as they were then (D27).' })
  @Property({ type: 'json' })
  placedBy!: PlacedBy;

  @Field(() => ServiceType)
  @Enum({ items: () => ServiceType })
  serviceType!: ServiceType;

  @Field()
  @Property({ type: 'string', length: 20 })
  sourceLanguage!: string;

  @Field()
  @Property({ type: 'string', length: 20 })
  targetLanguage!: string;

  @Field(() => BillingUnit)
  @Enum({ items: () => BillingUnit })
  unitType!: DocumentUnit;

  @Field(() => Int)
  @Property({ type: 'integer' })
  unitCount!: number;

  @Field(() => Int, {
    nullable: true,
    description: 'Physical pages of the files, beside the billing pages (D29); null when a file does not say.',
  })
  @Property({ type: 'integer', nullable: true })
  documentPages: number | null = null;

  @Field(() => Int, {
    nullable: true,
    description: 'Pages with no text layer, each one billing page on certified work (D29); null when unknown.',
  })
  @Property({ type: 'integer', nullable: true })
  scannedPages: number | null = null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  subtotalCents!: number;

  @Field(() => [QuotedAddon])
  @Property({ type: 'json' })
  addons: QuotedAddon[] = [];

  @Field(() => Int)
  @Property({ type: 'integer' })
  addonsTotalCents!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  totalCents!: number;

  @Field()
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  reference: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: "The client's purchase order number, printed on invoices (D31).",
  })
  @Property({ type: 'string', length: MAX_PURCHASE_ORDER, nullable: true })
  purchaseOrder: string | null = null;

  @Field(() => ShippingAddress, {
    nullable: true,
    description:
      'Where the hard copies go: only with hard copies, and null on an order until the client gives it (shippingAddressRequired).',
  })
  @Property({ type: 'json', nullable: true })
  shippingAddress: ShippingAddress | null = null;

  /** D30: for the translator and the desk only; never printed on what the court sees (the certificate). */
  @Field(() => String, {
    nullable: true,
    description:
      'Instructions to the translator (name spellings as on a passport, terms, format), as given; shown to staff, never printed on the certificate.',
  })
  @Property({ type: 'string', length: MAX_INSTRUCTIONS, nullable: true })
  instructions: string | null = null;
}
