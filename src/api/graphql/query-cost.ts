import {
  getNamedType,
  getNullableType,
  GraphQLInt,
  isCompositeType,
  isInputType,
  isListType,
  Kind,
  typeFromAST,
  valueFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { DEFAULT_PER_PAGE } from '../../domain/shared/pagination';

export interface CostInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | undefined;
}

/**
 * What an operation costs (D24, D36): `requested` in all, of which `flat` is charged whatever the answer holds: the
 * charge for its selected fields (D36) and 1 for each mutation that answers a scalar (D24), which counts no object.
 */
export interface OperationCost {
  requested: number;
  flat: number;
}

/** D36: the selected fields that cost one unit, whatever they select. */
export const FIELDS_PER_UNIT = 100;

/**
 * D24: what an operation costs, in the unit of a REST request: each object it selects costs 1, and the items of a
 * page count once per item the page may hold (`perPage`, or its default), so nested pages multiply. Lists without
 * pages (an order's files, the catalog) are small and loaded in one batch: they count once. Aliases and fragments
 * count wherever they are used. A mutation is an act, as a REST request is: each costs at least 1, so one answering a
 * scalar (`deleteFile`) costs 1, aliased as often as it is. D36: each 100 fields the operation selects (scalars and
 * `__typename` included, fragments counted where spread, pages not multiplied) cost 1 more, since reading, validating
 * and answering a wide document costs its width whatever it returns. Never less than 1.
 */
export function queryCost(input: CostInput): OperationCost {
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
const fixedCosts = new WeakMap<OperationDefinitionNode, OperationCost>();

/**
 * The variables as execution sees them (D36): a variable the request leaves out takes its default value, so
 * `query($pp: Int = 100)` sent without variables is priced as a page of 100, as it runs.
 */
function withDefaults(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  given: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const defaults = operation.variableDefinitions?.filter(
    (definition) => definition.defaultValue && given?.[definition.variable.name.value] === undefined,
  );
  if (!defaults?.length) return given;
  const variables = { ...given };
  for (const definition of defaults) {
    const type = typeFromAST(schema, definition.type);
    if (isInputType(type)) variables[definition.variable.name.value] = valueFromAST(definition.defaultValue, type);
  }
  return variables;
}

/** Costs saturate here, far above any budget: a document can multiply its way past what a double holds. */
const MOST_COST_COUNTED = Number.MAX_SAFE_INTEGER;
const capped = (cost: number) => Math.min(MOST_COST_COUNTED, cost);

/**
 * What a selection costs for the page size of the page it belongs to: `fixed + perItem * pageSize`, and how many
 * fields it selects. The cost is linear in the page size (only list fields multiply by it), so each fragment is
 * walked once and priced at every spread, instead of being walked again at every spread, which doubles the work per
 * level of a chain of fragments.
 */
interface Cost {
  fixed: number;
  perItem: number;
  fields: number;
  /** Mutations answering a scalar: charged whatever the answer holds. */
  acts: number;
}

const priced = ({ fixed, perItem }: Cost, pageSize: number) => capped(fixed + perItem * pageSize);
const added = (total: Cost, more: Cost) => {
  total.fixed = capped(total.fixed + more.fixed);
  total.perItem = capped(total.perItem + more.perItem);
  total.fields = capped(total.fields + more.fields);
  total.acts = capped(total.acts + more.acts);
};

function computeCost({ schema, document, operation, variables: given }: CostInput): {
  cost: OperationCost;
  readsVariables: boolean;
} {
  let readsVariables = false;
  const variables = withDefaults(schema, operation, given);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }

  /** `perPage` as given, or undefined: a variable is not yet checked to be an Int here (execution refuses it). */
  const perPageOf = (node: ValueNode) => {
    const value: unknown = valueFromAST(node, GraphQLInt, variables);
    return Number.isSafeInteger(value) ? (value as number) : undefined;
  };

  /**
   * Each fragment is walked once. `null` marks one being walked: a fragment spreading itself is refused by
   * GraphQL's own validation, and is not followed into again here.
   */
  const fragmentCosts = new Map<string, Cost | null>();
  const fragmentCost = (name: string): Cost | null | undefined => {
    const fragment = fragments.get(name);
    const condition = fragment && schema.getType(fragment.typeCondition.name.value);
    if (!fragment || !isCompositeType(condition)) return undefined;
    if (!fragmentCosts.has(name)) {
      fragmentCosts.set(name, null);
      fragmentCosts.set(name, cost(fragment.selectionSet, condition));
    }
    return fragmentCosts.get(name);
  };

  const mutations = schema.getMutationType();
  const cost = (set: SelectionSetNode, parent: GraphQLCompositeType): Cost => {
    const total: Cost = { fixed: 0, perItem: 0, fields: 0, acts: 0 };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        total.fields = capped(total.fields + 1);
        const field = 'getFields' in parent ? parent.getFields()[selection.name.value] : undefined;
        const type = field && getNamedType(field.type);
        if (!field || !selection.selectionSet || !isCompositeType(type)) {
          if (field && parent === mutations) added(total, { fixed: 1, perItem: 0, fields: 0, acts: 1 });
          continue;
        }
        const perPageArg = field.args.find((arg) => arg.name === 'perPage');
        const perPageNode = selection.arguments?.find((arg) => arg.name.value === 'perPage');
        if (perPageArg && perPageNode?.value.kind === Kind.VARIABLE) readsVariables = true;
        // `pageSize`: the perPage of the page this field's selection belongs to, which sizes its lists.
        const pageSize = perPageArg
          ? Math.max(1, (perPageNode && perPageOf(perPageNode.value)) ?? DEFAULT_PER_PAGE)
          : 1;
        const inner = cost(selection.selectionSet, type);
        const each = capped(1 + priced(inner, pageSize));
        added(
          total,
          isListType(getNullableType(field.type))
            ? { fixed: 0, perItem: each, fields: inner.fields, acts: 0 }
            : { fixed: each, perItem: 0, fields: inner.fields, acts: 0 },
        );
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition && schema.getType(selection.typeCondition.name.value);
        added(total, cost(selection.selectionSet, isCompositeType(condition) ? condition : parent));
      } else {
        const spread = fragmentCost(selection.name.value);
        if (spread) added(total, spread);
      }
    }
    return total;
  };

  const root = schema.getRootType(operation.operation);
  const total = root ? cost(operation.selectionSet, root) : { fixed: 0, perItem: 0, fields: 0, acts: 0 };
  const width = Math.floor(total.fields / FIELDS_PER_UNIT);
  const flat = capped(width + total.acts);
  return { cost: { requested: Math.max(1, capped(priced(total, 1) + width)), flat }, readsVariables };
}
