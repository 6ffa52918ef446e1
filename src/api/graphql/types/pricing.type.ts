import { Field, ObjectType } from 'type-graphql';
import { Addon, InterpretationRate, ServiceRate } from '../../../domain/catalog/rates.entity';

@ObjectType()
export class Pricing {
  @Field(() => [ServiceRate]) services!: ServiceRate[];
  @Field(() => [Addon]) addons!: Addon[];
  @Field(() => [InterpretationRate]) interpretation!: InterpretationRate[];
}
