import { ArgsType, Field, ID, type ClassType } from 'type-graphql';
import { ValidationError } from '../../../shared/errors';

/** Why an older argument name still works for a release (D28): staff mutations name what they act on `id`. */
const RENAMED_TO_ID = 'Use `id`; this name goes in the next release.';

export type ActedOn<K extends string> = { id?: string | null } & Partial<Record<K, string | null>>;

/** `id`, and the older name it replaces, deprecated: both optional in the schema, one of them required here. */
function idArgs<K extends string>(olderName: K): ClassType<ActedOn<K>> {
  @ArgsType()
  class IdArgs {
    @Field(() => ID, { nullable: true, description: 'What the mutation acts on.' })
    id?: string | null;
  }
  Field(() => ID, { nullable: true, deprecationReason: RENAMED_TO_ID })(IdArgs.prototype, olderName);
  return IdArgs as ClassType<ActedOn<K>>;
}

export const OrderIdArgs = idArgs('orderId');
export const FileIdArgs = idArgs('fileId');
export const AccountIdArgs = idArgs('accountId');
export const BookingIdArgs = idArgs('bookingId');

/** The id given, by either name; neither, or two different ones, is bad input. */
export function actedOn<K extends string>(args: ActedOn<K>, olderName: K): string {
  const older = args[olderName];
  if (args.id && older && args.id !== older)
    throw ValidationError.of('id', `Give the id once: id and ${olderName} differ.`);
  const value = args.id ?? older;
  if (!value) throw ValidationError.of('id', 'The id field is required.');
  return value;
}
