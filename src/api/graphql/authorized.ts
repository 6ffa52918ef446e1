import { defaultFieldResolver, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { Extensions } from 'type-graphql';
import { authChecker } from './auth-checker';
import type { GraphQLContext } from './context';

/** The schema field extension that carries a field's roles, as `@Authorized` named them. */
const ROLES = 'roles';

/** The methods of each resolver class that name their own roles, which the class's roles do not replace. */
const ownRoles = new WeakMap<object, Set<string>>();

/**
 * Who may run a field, type-graphql's `@Authorized` rule kept: a method's own roles, else its class's. The roles go
 * into the schema field's extensions, where `authorizeFields()` finds them. type-graphql's own `@Authorized` runs the
 * checker through its `async` middleware chain, so every authorized field, even one that returns a value it has
 * (an order's money), answered a promise and graphql-js completed its parent later; the checker is synchronous
 * (auth-checker.ts), and so is a field it guards here (README, "How fast").
 *
 * On a class, it is for a resolver class: it reaches the class's own methods, not an `@ObjectType`'s properties (put
 * it on each such field), nor what a subclass overrides (no resolver here extends another). Importing type-graphql's
 * own is a lint error: built without its checker, a class-level one would guard nothing.
 */
export function Authorized(...roles: string[]): MethodDecorator & ClassDecorator {
  return (target: object, method?: string | symbol) => {
    if (method === undefined) {
      const prototype = (target as { prototype: object }).prototype;
      const own = ownRoles.get(prototype);
      for (const name of Object.getOwnPropertyNames(prototype))
        if (name !== 'constructor' && !own?.has(name)) Extensions({ [ROLES]: roles })(prototype, name);
      return;
    }
    const own = ownRoles.get(target) ?? new Set<string>();
    ownRoles.set(target, own.add(String(method)));
    Extensions({ [ROLES]: roles })(target, method);
  };
}

/**
 * Puts the checker in front of every field that has roles: it runs before the field's resolver (the input is read
 * after it, D27). A refusal is answered as a rejected promise, as type-graphql's chain answered it: thrown, a refused
 * non-null root field would stop graphql-js from running the fields beside it, and the answer would name one refusal
 * where it named each. Run once, on the built schema.
 */
export function authorizeFields(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const roles = field.extensions[ROLES] as string[] | undefined;
      if (!roles) continue;
      const resolve: GraphQLFieldResolver<unknown, GraphQLContext> = field.resolve ?? defaultFieldResolver;
      const authorized: GraphQLFieldResolver<unknown, GraphQLContext> = (root, args, context, info) => {
        try {
          authChecker(context, info, roles);
        } catch (refusal) {
          return Promise.reject(refusal);
        }
        return resolve(root, args, context, info);
      };
      field.resolve = authorized;
    }
  }
  return schema;
}
