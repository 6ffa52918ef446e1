import {
  getOperationAST,
  GraphQLError,
  Kind,
  parse,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { queryCost } from './query-cost';
import { limitRefusals, type QueryLimits } from './query-limits';

/** D36: the most a GraphQL document may weigh, in bytes of UTF-8; a larger one is refused before it is parsed. */
export const MAX_DOCUMENT_BYTES = 64 * 1024;

/** What was decided about one document text, kept for the next request with the same text. */
interface Reading {
  document: DocumentNode;
  /** The limits' refusals (depth, fields), empty when the document is within them. */
  refusals: readonly GraphQLError[];
}

export type Admission =
  | { kind: 'unread' }
  | { kind: 'too_large'; bytes: number }
  | { kind: 'read'; document: DocumentNode; refusals: readonly GraphQLError[]; cost: number };

/**
 * The cached readings' text, in bytes at most: polling clients send the same few documents all day, each read once;
 * a parsed document takes several times its text, so this bounds the cache's memory to a few megabytes.
 */
const CACHED_TEXT_BYTES = 512 * 1024;
/** Only small documents are kept: a large one is rare from a real client and would push out many polls. */
const MOST_CACHED_BYTES = 8 * 1024;

/**
 * D36: the first look at a GraphQL document, before the standard validation (whose rules are not all linear in a
 * document's size) and before anything runs: its size, its depth and fields (query-limits.ts), and its requested cost
 * (query-cost.ts), so that a refused document can be charged as if it had run. Every step is a linear walk of a
 * document of at most 64 KB; readings of documents within the limits are cached by their text.
 */
export class DocumentAdmission {
  private readonly cache = new Map<string, Reading>();
  private cachedBytes = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: QueryLimits,
  ) {}

  /**
   * `unread` when there is no document to read here (no query text: a persisted query, or a request Apollo refuses)
   * or it does not parse (Apollo answers its syntax error).
   */
  admit(text: unknown, operationName: unknown, variables: unknown): Admission {
    if (typeof text !== 'string') return { kind: 'unread' };
    // Characters first: a string's UTF-8 bytes are at least its length and at most three times it.
    if (
      text.length > MAX_DOCUMENT_BYTES ||
      (text.length * 3 > MAX_DOCUMENT_BYTES && byteLength(text) > MAX_DOCUMENT_BYTES)
    )
      return { kind: 'too_large', bytes: byteLength(text) };
    const reading = this.cache.get(text) ?? this.read(text);
    if (!reading) return { kind: 'unread' };
    const cost = requestedCost(
      this.schema,
      reading.document,
      typeof operationName === 'string' ? operationName : undefined,
      isObject(variables) ? variables : undefined,
    );
    return { kind: 'read', document: reading.document, refusals: reading.refusals, cost };
  }

  /**
   * The operation a document already read and kept would run, without reading anything: what the context may look at
   * before the caller's budget is checked (a poll, polled-field.ts). A text not kept yet answers undefined.
   */
  peek(text: unknown, operationName: unknown): OperationDefinitionNode | undefined {
    const reading = typeof text === 'string' ? this.cache.get(text) : undefined;
    return (
      (reading && getOperationAST(reading.document, typeof operationName === 'string' ? operationName : undefined)) ??
      undefined
    );
  }

  private read(text: string): Reading | undefined {
    let document: DocumentNode;
    try {
      document = parse(text, { noLocation: false });
    } catch {
      return undefined;
    }
    const refusals = limitRefusals(document, this.limits);
    const reading = { document, refusals };
    if (refusals.length === 0) this.remember(text, reading);
    return reading;
  }

  private remember(text: string, reading: Reading): void {
    if (text.length > MOST_CACHED_BYTES) return;
    while (this.cachedBytes + text.length > CACHED_TEXT_BYTES) {
      const oldest = this.cache.keys().next().value!;
      this.cache.delete(oldest);
      this.cachedBytes -= oldest.length;
    }
    this.cache.set(text, reading);
    this.cachedBytes += text.length;
  }
}

/**
 * What running the document would cost: its chosen operation's cost, or, when it names none that exists (a refusal
 * to come), every operation's, as if each ran.
 */
function requestedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> | undefined,
): number {
  const chosen = getOperationAST(document, operationName);
  const operations = chosen
    ? [chosen]
    : document.definitions.filter(
        (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
      );
  const cost = operations.reduce(
    (sum, operation) => sum + queryCost({ schema, document, operation, variables }).requested,
    0,
  );
  return Math.max(1, Math.min(Number.MAX_SAFE_INTEGER, cost));
}

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
