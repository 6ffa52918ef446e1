import { Field, ID, ObjectType } from 'type-graphql';
import type { Actor } from './context';

export enum PlacedByKind {
  API_KEY = 'api_key',
  MEMBER = 'member',
}

@ObjectType()
export class PlacedByMember {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() email!: string;
}

/**
 * Who made a quote, order or booking (D27): the account's API key, or a member, recorded as they were then (a
 * removed member is still named). Stored as JSON beside the work, so every read of it, polled ones included, has it.
 */
@ObjectType()
export class PlacedBy {
  @Field(() => PlacedByKind) kind!: PlacedByKind;
  @Field(() => PlacedByMember, { nullable: true }) member!: PlacedByMember | null;
}

export const PLACED_BY_API_KEY: PlacedBy = { kind: PlacedByKind.API_KEY, member: null };

/** The record for work a partner credential makes now. */
export function placedBy(actor: Actor | null): PlacedBy {
  if (actor?.kind !== 'account' || !actor.member) return PLACED_BY_API_KEY;
  const { id, name, email } = actor.member;
  return { kind: PlacedByKind.MEMBER, member: { id, name, email } };
}
