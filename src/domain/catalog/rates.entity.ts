import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { AddonPricingType, BillingUnit, InterpretationMode, ServiceType, type DocumentUnit } from './catalog.enums';

/**
 * The rate card lives in the database, seeded by a migration (D7). Quotes and bookings copy the prices
 * they were made with, so a later change here never alters them. `position` keeps the published order.
 */
/** What every line of the rate card has: its currency, its place in the published order, its last change. */
@ObjectType()
@Entity({ abstract: true })
abstract class RateCardLine {
  @Field()
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'smallint' })
  position!: number;

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

@ObjectType()
@Entity({ tableName: 'service_rates' })
export class ServiceRate extends RateCardLine {
  @Field(() => ServiceType)
  @Enum({ items: () => ServiceType, primary: true })
  serviceType!: ServiceType;

  @Field(() => BillingUnit)
  @Enum({ items: () => BillingUnit })
  unit!: DocumentUnit;

  @Field(() => Int)
  @Property({ type: 'integer' })
  unitPriceCents!: number;
}

@ObjectType()
@Entity({ tableName: 'addons' })
export class Addon extends RateCardLine {
  @Field()
  @PrimaryKey({ type: 'string', length: 50 })
  code!: string;

  @Field()
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => AddonPricingType)
  @Enum({ items: () => AddonPricingType })
  pricingType!: AddonPricingType;

  @Field(() => Int)
  @Property({ type: 'integer' })
  priceCents!: number;
}

@ObjectType()
@Entity({ tableName: 'interpretation_rates' })
export class InterpretationRate extends RateCardLine {
  @Field(() => InterpretationMode)
  @Enum({ items: () => InterpretationMode, primary: true })
  mode!: InterpretationMode;

  /** Interpretation is always billed by the hour; not stored. */
  @Field(() => BillingUnit)
  get unit(): BillingUnit.HOUR {
    return BillingUnit.HOUR;
  }

  @Field(() => Int)
  @Property({ type: 'integer' })
  unitPriceCents!: number;

  @Field(() => Int)
  @Property({ type: 'smallint' })
  minimumHours!: number;
}
