import { Field, ObjectType } from 'type-graphql';
import { nested, text } from '../shared/command-fields';

/** Where mailed hard copies of a translation go (D22); kept with the quote and carried to its order. */
@ObjectType({ description: 'Where mailed hard copies go.' })
export class ShippingAddress {
  @Field({ description: 'Who receives the parcel.' }) name!: string;
  @Field() line1!: string;
  @Field(() => String, { nullable: true }) line2!: string | null;
  @Field() city!: string;
  @Field(() => String, { nullable: true, description: 'State, province or county, where the country uses one.' })
  region!: string | null;
  @Field() postalCode!: string;
  @Field({ description: 'ISO 3166-1 alpha-2 country code, e.g. US.' }) country!: string;
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region' });

/** An ISO 3166-1 alpha-2 code CLDR knows as a country or territory (`Intl` answers an unknown code unchanged). */
const isCountry = (code: string) =>
  /^[A-Z]{2}$/.test(code) && !['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ'].includes(code) && REGIONS.of(code) !== code;

/** The per-copy add-on that mails hard copies (D22). */
export const HARD_COPY = 'hard_copy';

/** Whether quoted or ordered work includes mailed hard copies. */
export const hasHardCopies = (work: { addons: { code: string }[] }): boolean =>
  work.addons.some((line) => line.code === HARD_COPY);

/** The fields of an address (D22), as a quote's `shipping_address` and the body of `PUT /orders/{id}/shipping_address`. */
export const addressFields = {
  name: text({ required: true, max: 200 }),
  line1: text({ required: true, max: 200 }),
  line2: text({ max: 200 }),
  city: text({ required: true, max: 100 }),
  region: text({ max: 100 }),
  postalCode: text({ required: true, max: 20 }),
  country: text({ required: true, max: 2, pattern: '^[A-Za-z]{2}$' }).transform((code, ctx) => {
    const upper = code.toUpperCase();
    if (!isCountry(upper))
      // Named as itself wherever the address sits (`shipping_address.country` on a quote), as D22's messages read.
      ctx.addIssue({
        code: 'custom',
        message: 'The country field must be an ISO 3166-1 alpha-2 country code.',
        input: code,
      });
    return upper;
  }),
};

/** A quote's optional `shipping_address`: errors under `shipping_address.<field>`. */
export const shippingAddressField = () => nested(addressFields);

/** The address an `addressFields` command names, as the order keeps it. */
export const shippingAddressOf = (fields: {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postalCode: string;
  country: string;
}): ShippingAddress =>
  Object.assign(new ShippingAddress(), { ...fields, line2: fields.line2 ?? null, region: fields.region ?? null });

/** The same address, field for field (`line2` and `region` absent or null alike). */
export const sameAddress = (a: ShippingAddress | null, b: ShippingAddress | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    (['name', 'line1', 'line2', 'city', 'region', 'postalCode', 'country'] as const).every(
      (key) => (a[key] ?? null) === (b[key] ?? null),
    ));
