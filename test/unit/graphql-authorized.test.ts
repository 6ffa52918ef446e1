import 'reflect-metadata';
import { graphql, isObjectType, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
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

  it("keeps every field's roles: a change to who may run a field shows in the snapshot", () => {
    const guarded = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .flatMap((type) =>
        Object.values(type.getFields())
          .filter((field) => field.extensions.roles)
          .map((field) => `${type.name}.${field.name}: ${(field.extensions.roles as string[]).join(', ')}`),
      )
      .sort();
    expect(guarded).toMatchSnapshot();
  });

  it('answers an allowed field synchronously, with what its resolver returns', () => {
    const order = { totalCents: 1234, notes: [] };
    expect(resolve('Order.totalCents', account, order)).toBe(1234);
    expect(resolve('Order.totalCents', staff(StaffRole.DESK), order)).toBe(1234);
  });

  it('refuses each guarded field an operation asks, and runs none of their resolvers', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const { data, errors } = await graphql({
      schema,
      source: `{ me { id } order(id: "${id}") { id } quote(id: "${id}") { id } }`,
      contextValue: { ctx: { actor: null } },
    });
    expect(data).toBeNull();
    expect(errors!.map((error) => [error.path, error.originalError?.constructor.name]).sort()).toEqual([
      [['me'], 'UnauthenticatedError'],
      [['order'], 'UnauthenticatedError'],
      [['quote'], 'UnauthenticatedError'],
    ]);
  });

  it('refuses before the resolver runs', async () => {
    const order = {
      get totalCents(): number {
        throw new Error('the resolver ran');
      },
    };
    await expect(resolve('Order.totalCents', staff(StaffRole.TRANSLATOR), order)).rejects.toThrow(ForbiddenError);
    await expect(resolve('Order.notes', account, order)).rejects.toThrow(ForbiddenError);
    await expect(resolve('Order.notes', null, order)).rejects.toThrow(UnauthenticatedError);
    await expect(resolve('Query.order', staff(StaffRole.ADMIN), {})).rejects.toThrow(ForbiddenError);
    await expect(resolve('Query.order', null, {})).rejects.toThrow(UnauthenticatedError);
  });
});
