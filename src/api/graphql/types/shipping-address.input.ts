import { Field, InputType } from 'type-graphql';

@InputType({ description: 'Where mailed hard copies go.' })
export class ShippingAddressInput {
  @Field({ description: 'Who receives the parcel.' }) name!: string;
  @Field() line1!: string;
  @Field({ nullable: true }) line2?: string;
  @Field() city!: string;
  @Field({ nullable: true, description: 'State, province or county, where the country uses one.' }) region?: string;
  @Field() postalCode!: string;
  @Field({ description: 'ISO 3166-1 alpha-2 country code, e.g. US.' }) country!: string;
}
