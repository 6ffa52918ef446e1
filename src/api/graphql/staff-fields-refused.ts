import {
  BREAK,
  GraphQLError,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { requireStaff } from '../../domain/identity/guards';
import { isStaffOperation, requireStaffMayRead } from '../../domain/identity/staff-permissions';
import type { Actor, StaffActor } from '../../domain/identity/context';
import { DomainError } from '../../shared/errors';
import { staffOperationName } from './auth-checker';

/**
 * The refusal the resolvers would give to the first staff field of the operation the caller may not use
 * (the permission table, D28), or null. The cost refusal asks first, so that an account key asking a costly staff
 * list hears FORBIDDEN, what it would hear for a cheap one, rather than QUERY_TOO_COMPLEX.
 */
export function refusedStaffField(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  actor: Actor | null,
): GraphQLError | null {
  return firstRefusal(
    schema,
    document,
    operation,
    actor ? 'FORBIDDEN' : 'UNAUTHENTICATED',
    (name) => isStaffOperation(name) && requireStaff(actor, name),
  );
}

/**
 * The refusal of the first field the staff member's role may not read (STAFF_READ_LIMITS, D28), or null: asked
 * before the operation runs, so that a translator's mutation that selects an order's money is refused whole, not
 * carried out with its answer refused.
 */
export function refusedReadLimit(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  actor: StaffActor,
): GraphQLError | null {
  return firstRefusal(schema, document, operation, 'FORBIDDEN', (name) => requireStaffMayRead(actor.staff.role, name));
}

/** Walks the operation's fields (each fragment spread where it stands) and answers the first that `check` refuses. */
function firstRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  code: string,
  check: (name: string) => unknown,
): GraphQLError | null {
  const typeInfo = new TypeInfo(schema);
  let refusal: GraphQLError | null = null;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition: (node) => (node === operation ? undefined : false),
      Field(node) {
        const parent = typeInfo.getParentType();
        if (!parent) return undefined;
        try {
          check(staffOperationName(parent.name, node.name.value));
          return undefined;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          refusal = new GraphQLError(error.message, { extensions: { code, http: { status: 200 } } });
          return BREAK;
        }
      },
    }),
  );
  return refusal;
}
