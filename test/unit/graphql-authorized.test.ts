import 'reflect-metadata';
import type { GraphQLObjectType, GraphQLResolveInfo, GraphQLSchema } from 'graphql';
import { buildGraphQLSchema } from '../../src/api/graphql/schema';
import type { Actor } from '../../src/domain/identity/context';
import { StaffRole } from '../../src/domain/identity/staff-user.entity';
import { ForbiddenError, UnauthenticatedError } from '../../src/shared/errors';

/** `@Authorized` (src/api/graphql/authorized.ts): roles in the schema, checked synchronously before the resolver. */
let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildGraphQLSchema();
});

const fieldOf = (coordinate: string) => {
  const [typeName, fieldName] = coordinate.split('.');
  const parentType = schema.getType(typeName) as GraphQLObjectType;
  return { field: parentType.getFields()[fieldName], info: { parentType, fieldName } as GraphQLResolveInfo };
};

const account: Actor = { kind: 'account', accountId: 'acc', status: 'approved', member: null } as unknown as Actor;
const staff = (role: StaffRole): Actor => ({ kind: 'staff', staff: { role } }) as unknown as Actor;

/** Runs a field's resolver as graphql-js does, for the caller, over `root`. */
const resolve = (coordinate: string, actor: Actor | null, root: object) => {
  const { field, info } = fieldOf(coordinate);
  return field.resolve!(root, {}, { ctx: { actor } }, info);
};

describe('@Authorized', () => {
  it("gives a method its class's roles, or its own in their place", () => {
    const roles = (coordinate: string) => fieldOf(coordinate).field.extensions.roles;
    expect(roles('Query.order')).toEqual(['ACCOUNT']);
    expect(roles('Mutation.renewCheckout')).toEqual(['orders.renew_checkout', 'bookings.renew_checkout']);
    expect(roles('Query.members')).toEqual(['members.read']);
    expect(roles('Query.staffOrders')).toEqual(['STAFF']);
    expect(roles('Order.totalCents')).toEqual(['READ_LIMITED']);
    expect(roles('Order.status')).toBeUndefined();
  });

  it('answers an allowed field synchronously, with what its resolver returns', () => {
    const order = { totalCents: 1234, notes: [] };
    expect(resolve('Order.totalCents', account, order)).toBe(1234);
    expect(resolve('Order.totalCents', staff(StaffRole.DESK), order)).toBe(1234);
  });

  it('throws the refusal before the resolver runs', () => {
    const order = {
      get totalCents(): number {
        throw new Error('the resolver ran');
      },
    };
    expect(() => resolve('Order.totalCents', staff(StaffRole.TRANSLATOR), order)).toThrow(ForbiddenError);
    expect(() => resolve('Order.notes', account, order)).toThrow(ForbiddenError);
    expect(() => resolve('Order.notes', null, order)).toThrow(UnauthenticatedError);
    expect(() => resolve('Query.order', staff(StaffRole.ADMIN), {})).toThrow(ForbiddenError);
    expect(() => resolve('Query.order', null, {})).toThrow(UnauthenticatedError);
  });
});
