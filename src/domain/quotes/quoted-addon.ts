import { Field, Int, ObjectType } from 'type-graphql';

/** One priced add-on line, with the prices it was quoted at. */
@ObjectType()
export class QuotedAddon {
  @Field() code!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => Int) unitPriceCents!: number;
  @Field(() => Int) totalCents!: number;
}
