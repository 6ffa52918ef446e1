import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface QueryLimits {
  /** Deepest field nesting allowed. */
  maxDepth: number;
  /**
   * Deepest nesting inside `__schema` and `__type`: explorers' standard introspection query nests `ofType` about
   * fifteen levels, over a schema that does not change; the rest of the operation keeps `maxDepth`.
   */
  maxIntrospectionDepth: number;
  /** Most fields one operation may select, fragments expanded: the document's size (what running it costs is D24's, query-cost.ts). */
  maxFields: number;
}

interface Measure {
  depth: number;
  introspectionDepth: number;
  fields: number;
}

const isIntrospection = (name: string) => name === '__schema' || name === '__type';

/** Field counts saturate here: a chain of n fragments each spreading the one before twice selects 2^n fields. */
const MOST_FIELDS_COUNTED = Number.MAX_SAFE_INTEGER;
const addFields = (a: number, b: number) => Math.min(MOST_FIELDS_COUNTED, a + b);

/** Refuses over-deep or over-wide documents (D14) before anything is resolved, as a validation rule. */
export function queryLimits(limits: QueryLimits): ValidationRule {
  return (context: ValidationContext) => ({
    Document(document) {
      for (const refusal of limitRefusals(document, limits)) context.reportError(refusal);
      return false;
    },
  });
}

/**
 * What `queryLimits` refuses in `document`, read from the syntax tree alone: no schema, no type information, so the
 * first look at a client's document (document-admission.ts, D36) costs a walk of its nodes and nothing more.
 */
export function limitRefusals(document: DocumentNode, limits: QueryLimits): GraphQLError[] {
  const refusals: GraphQLError[] = [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }

  /**
   * Each fragment is measured once, as if spread at depth 1, and shifted to where it is spread: what it adds
   * does not depend on where that is, and measuring it at every spread doubles the work per level of a chain
   * of fragments. `null` marks one being measured: a fragment spreading itself is reported by GraphQL's own
   * rules, and is not followed into again here.
   */
  const measured = new Map<string, Measure | null>();
  const fragmentAt = (name: string, depth: number): Measure | undefined => {
    const fragment = fragments.get(name);
    if (!fragment) return undefined;
    if (!measured.has(name)) {
      measured.set(name, null);
      measured.set(name, measure(fragment.selectionSet, 1));
    }
    const atOne = measured.get(name);
    if (!atOne) return undefined;
    const shift = depth - 1;
    // An introspection depth of 0 is none, and stays none.
    return {
      depth: atOne.depth + shift,
      introspectionDepth: atOne.introspectionDepth && atOne.introspectionDepth + shift,
      fields: atOne.fields,
    };
  };

  const measure = (set: SelectionSetNode, depth: number): Measure => {
    const total: Measure = { depth, introspectionDepth: 0, fields: 0 };
    for (const selection of set.selections) {
      let inner: Measure | undefined;
      if (selection.kind === Kind.FIELD) {
        inner = selection.selectionSet
          ? measure(selection.selectionSet, depth + 1)
          : { depth, introspectionDepth: 0, fields: 0 };
        inner.fields = addFields(inner.fields, 1);
        if (isIntrospection(selection.name.value))
          inner = { ...inner, depth, introspectionDepth: Math.max(inner.depth, inner.introspectionDepth) };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = measure(selection.selectionSet, depth);
      } else {
        inner = fragmentAt(selection.name.value, depth);
      }
      if (inner) {
        total.depth = Math.max(total.depth, inner.depth);
        total.introspectionDepth = Math.max(total.introspectionDepth, inner.introspectionDepth);
        total.fields = addFields(total.fields, inner.fields);
      }
    }
    return total;
  };

  // The whole document at once: every operation and every fragment is validated, not only the one that runs, so
  // its fields are counted together (D36): a document of many small operations costs validation as much as one
  // large one. A fragment no operation spreads is counted once on its own.
  let fields = 0;
  let first: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    first ??= definition;
    const size = measure(definition.selectionSet, 1);
    fields = addFields(fields, size.fields);
    if (size.depth > limits.maxDepth) {
      refusals.push(
        new GraphQLError(`Query depth ${size.depth} exceeds the limit of ${limits.maxDepth}.`, {
          nodes: [definition],
        }),
      );
    }
    if (size.introspectionDepth > limits.maxIntrospectionDepth) {
      refusals.push(
        new GraphQLError(
          `Introspection depth ${size.introspectionDepth} exceeds the limit of ${limits.maxIntrospectionDepth}.`,
          { nodes: [definition] },
        ),
      );
    }
  }
  for (const name of fragments.keys()) {
    if (!measured.has(name)) fields = addFields(fields, fragmentAt(name, 1)?.fields ?? 0);
  }
  if (fields > limits.maxFields) {
    refusals.push(
      new GraphQLError(
        `Query selects ${fields === MOST_FIELDS_COUNTED ? 'at least ' : ''}${fields} fields, more than the limit of ${limits.maxFields}.`,
        { nodes: [first ?? document] },
      ),
    );
  }
  return refusals;
}
