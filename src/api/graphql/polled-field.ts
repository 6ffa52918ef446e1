import { Kind, OperationTypeNode, type OperationDefinitionNode } from 'graphql';
import { isId } from '../../domain/shared/ids';

/** The fields partners poll all day (D23), as the schema names them. */
export type PolledField = 'order' | 'interpretationBooking';

const POLLED_FIELDS: readonly string[] = ['order', 'interpretationBooking'] satisfies PolledField[];

/** The one record a document polls: which field, and the id it asks for. */
export interface PolledFieldRequest {
  field: PolledField;
  id: string;
}

/**
 * The poll a GraphQL operation asks when it asks nothing else: a query whose only root field is `order(id:)` or
 * `interpretationBooking(id:)`, unconditional, with its id written out or given as a variable. Its answer is then read
 * with the caller's key, as a REST poll's is, so that the poll costs one statement (D23, docs/decisions.md). Only the
 * operation's top level is looked at.
 */
export function polledFieldOf(
  operation: OperationDefinitionNode | undefined,
  variables: unknown,
): PolledFieldRequest | undefined {
  if (operation?.operation !== OperationTypeNode.QUERY) return undefined;
  const [only, ...others] = operation.selectionSet.selections;
  if (others.length > 0 || only?.kind !== Kind.FIELD || !POLLED_FIELDS.includes(only.name.value)) return undefined;
  // `@skip` or `@include` may keep the field from running: then nothing is read ahead for it.
  if (only.directives?.length) return undefined;
  const value = only.arguments?.find((argument) => argument.name.value === 'id')?.value;
  const id =
    value?.kind === Kind.STRING
      ? value.value
      : value?.kind === Kind.VARIABLE && typeof variables === 'object' && variables !== null
        ? (variables as Record<string, unknown>)[value.name.value]
        : undefined;
  return typeof id === 'string' && isId(id) ? { field: only.name.value as PolledField, id } : undefined;
}
