import {
  getNamedType,
  getNullableType,
  GraphQLInt,
  isCompositeType,
  isListType,
  Kind,
  valueFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DEFAULT_PER_PAGE } from '../../domain/shared/pagination';

export interface CostInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | undefined;
}

/**
 * D24: what an operation costs, in the unit of a REST request: each object it selects costs 1 (scalars are free),
 * and the items of a page count once per item the page may hold (`perPage`, or its default), so nested pages
 * multiply. Lists without pages (an order's files, the catalog) are small and loaded in one batch: they count
 * once. Aliases and fragments count wherever they are used. Never less than 1.
 */
export function queryCost(input: CostInput): number {
  const known = fixedCosts.get(input.operation);
  if (known !== undefined) return known;
  const { cost, readsVariables } = computeCost(input);
  if (!readsVariables) fixedCosts.set(input.operation, cost);
  return cost;
}

/**
 * The cost of operations whose page sizes are written in the document, not passed as variables (the polled
 * `order(id)` among them): Apollo hands every request of the same text the same parsed document, so the walk is
 * done once per operation.
 */
const fixedCosts = new WeakMap<OperationDefinitionNode, number>();

function computeCost({ schema, document, operation, variables }: CostInput): { cost: number; readsVariables: boolean } {
  let readsVariables = false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }

  /** `pageSize`: the perPage of the page this selection belongs to, which sizes its lists. */
  const cost = (set: SelectionSetNode, parent: GraphQLCompositeType, pageSize: number, spreading: ReadonlySet<string>): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const field = 'getFields' in parent ? parent.getFields()[selection.name.value] : undefined;
        const type = field && getNamedType(field.type);
        if (!field || !selection.selectionSet || !isCompositeType(type)) continue;
        const perPageArg = field.args.find((arg) => arg.name === 'perPage');
        const perPageNode = selection.arguments?.find((arg) => arg.name.value === 'perPage');
        if (perPageArg && perPageNode?.value.kind === Kind.VARIABLE) readsVariables = true;
        const perPage = perPageArg && Math.max(1, ((perPageNode && valueFromAST(perPageNode.value, GraphQLInt, variables)) as number | undefined) ?? DEFAULT_PER_PAGE);
        const count = isListType(getNullableType(field.type)) ? pageSize : 1;
        total += count * (1 + cost(selection.selectionSet, type, perPage ?? 1, spreading));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition && schema.getType(selection.typeCondition.name.value);
        total += cost(selection.selectionSet, isCompositeType(condition) ? condition : parent, pageSize, spreading);
      } else {
        const fragment = fragments.get(selection.name.value);
        const condition = fragment && schema.getType(fragment.typeCondition.name.value);
        // A fragment spreading itself is refused by GraphQL's own validation; do not loop on it here.
        if (fragment && isCompositeType(condition) && !spreading.has(fragment.name.value)) {
          total += cost(fragment.selectionSet, condition, pageSize, new Set(spreading).add(fragment.name.value));
        }
      }
    }
    return total;
  };

  const root = schema.getRootType(operation.operation);
  return { cost: Math.max(1, root ? cost(operation.selectionSet, root, 1, new Set()) : 0), readsVariables };
}
