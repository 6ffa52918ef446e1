import {
  GraphQLError,
  Kind,
  type FragmentDefinitionNode,
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

/** Refuses over-deep or over-wide documents (D14) before anything is resolved. */
export function queryLimits(limits: QueryLimits): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }

    const measure = (set: SelectionSetNode, depth: number, spreading: ReadonlySet<string>): Measure => {
      const total: Measure = { depth, introspectionDepth: 0, fields: 0 };
      for (const selection of set.selections) {
        let inner: Measure | undefined;
        if (selection.kind === Kind.FIELD) {
          inner = selection.selectionSet ? measure(selection.selectionSet, depth + 1, spreading) : { depth, introspectionDepth: 0, fields: 0 };
          inner.fields += 1;
          if (isIntrospection(selection.name.value)) inner = { ...inner, depth, introspectionDepth: Math.max(inner.depth, inner.introspectionDepth) };
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          inner = measure(selection.selectionSet, depth, spreading);
        } else {
          const fragment = fragments.get(selection.name.value);
          // A fragment spreading itself is reported by GraphQL's own rules; do not loop on it here.
          if (fragment && !spreading.has(fragment.name.value)) {
            inner = measure(fragment.selectionSet, depth, new Set(spreading).add(fragment.name.value));
          }
        }
        if (inner) {
          total.depth = Math.max(total.depth, inner.depth);
          total.introspectionDepth = Math.max(total.introspectionDepth, inner.introspectionDepth);
          total.fields += inner.fields;
        }
      }
      return total;
    };

    return {
      OperationDefinition(operation) {
        const { depth, introspectionDepth, fields } = measure(operation.selectionSet, 1, new Set());
        if (depth > limits.maxDepth) {
          context.reportError(new GraphQLError(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}.`, { nodes: [operation] }));
        }
        if (introspectionDepth > limits.maxIntrospectionDepth) {
          context.reportError(new GraphQLError(`Introspection depth ${introspectionDepth} exceeds the limit of ${limits.maxIntrospectionDepth}.`, { nodes: [operation] }));
        }
        if (fields > limits.maxFields) {
          context.reportError(new GraphQLError(`Query selects ${fields} fields, more than the limit of ${limits.maxFields}.`, { nodes: [operation] }));
        }
      },
    };
  };
}
