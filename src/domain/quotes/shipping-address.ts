import { Field, ObjectType } from 'type-graphql';
import type { Validator } from '../shared/validation';

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

/** Reads `shipping_address` of a quote (errors under `shipping_address.<field>`, D22); undefined when absent or invalid. */
export function readShippingAddress(v: Validator, raw: unknown): ShippingAddress | undefined {
  if (raw === undefined || raw === null) return undefined;
  const at = v.nested('shipping_address', raw);
  return at && readAddressFields(at);
}

/** Reads an address whose fields are `at`'s own (the body of `PUT /orders/{id}/shipping_address`); undefined when invalid. */
export function readAddressFields(at: Validator): ShippingAddress | undefined {
  const address = {
    name: at.string('name', { required: true, max: 200 }),
    line1: at.string('line1', { required: true, max: 200 }),
    line2: at.string('line2', { max: 200 }) ?? null,
    city: at.string('city', { required: true, max: 100 }),
    region: at.string('region', { max: 100 }) ?? null,
    postalCode: at.string('postal_code', { required: true, max: 20 }),
    country: at.string('country', { required: true, max: 2 })?.toUpperCase(),
  };
  if (address.country !== undefined && !isCountry(address.country))
    at.fail('country', 'The country field must be an ISO 3166-1 alpha-2 country code.');
  if (at.hasErrors()) return undefined;
  return Object.assign(new ShippingAddress(), address);
}

/** The same address, field for field (`line2` and `region` absent or null alike). */
export const sameAddress = (a: ShippingAddress | null, b: ShippingAddress | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    (['name', 'line1', 'line2', 'city', 'region', 'postalCode', 'country'] as const).every(
      (key) => (a[key] ?? null) === (b[key] ?? null),
    ));
