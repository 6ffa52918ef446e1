import { GraphQLError, Kind, type ASTNode, type ValidationContext, type ValidationRule } from 'graphql';

/** Refuses documents nested deeper than `max` fields (D14), before anything is resolved. */
export function depthLimit(max: number): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = new Map(context.getDocument().definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [])));
    const depthOf = (node: ASTNode, depth: number, seen: Set<string>): number => {
      switch (node.kind) {
        case Kind.FIELD:
          if (!node.selectionSet) return depth;
          return Math.max(depth, ...node.selectionSet.selections.map((s) => depthOf(s, depth + 1, seen)));
        case Kind.INLINE_FRAGMENT:
          return Math.max(depth, ...node.selectionSet.selections.map((s) => depthOf(s, depth, seen)));
        case Kind.FRAGMENT_SPREAD: {
          const fragment = fragments.get(node.name.value);
          if (!fragment || seen.has(node.name.value)) return depth;
          const next = new Set(seen).add(node.name.value);
          return Math.max(depth, ...fragment.selectionSet.selections.map((s) => depthOf(s, depth, next)));
        }
        default:
          return depth;
      }
    };
    return {
      OperationDefinition(operation) {
        const depth = Math.max(0, ...operation.selectionSet.selections.map((s) => depthOf(s, 1, new Set())));
        if (depth > max) {
          context.reportError(new GraphQLError(`Query depth ${depth} exceeds the limit of ${max}.`, { nodes: [operation] }));
        }
      },
    };
  };
}
