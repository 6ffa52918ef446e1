import { BREAK, GraphQLError, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { requireStaff } from '../../domain/accounts/authentication.service';
import { isStaffOperation } from '../../domain/staff/staff-permissions';
import type { Actor } from '../../domain/shared/context';
import { DomainError } from '../../shared/errors';
import { staffOperationName } from './auth-checker';

/**
 * The refusal the resolvers would give to the first staff field of the operation the caller may not use
 * (the permission table, D28), or null. The cost refusal asks first, so that an account key asking a costly staff
 * list hears FORBIDDEN, what it would hear for a cheap one, rather than QUERY_TOO_COMPLEX.
 */
export function refusedStaffField(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, actor: Actor | null): GraphQLError | null {
  const typeInfo = new TypeInfo(schema);
  let refusal: GraphQLError | null = null;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition: (node) => (node === operation ? undefined : false),
      Field(node) {
        const parent = typeInfo.getParentType();
        const name = parent && staffOperationName(parent.name, node.name.value);
        if (!name || !isStaffOperation(name)) return undefined;
        try {
          requireStaff(actor, name);
          return undefined;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const code = actor ? 'FORBIDDEN' : 'UNAUTHENTICATED';
          refusal = new GraphQLError(error.message, { extensions: { code, http: { status: 200 } } });
          return BREAK;
        }
      },
    }),
  );
  return refusal;
}
