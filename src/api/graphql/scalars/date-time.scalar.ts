import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { formatTimestamp } from '../../format';

const parse = (value: unknown): Date => {
  const date = typeof value === 'string' && /[zZ]|[+-]\d{2}:\d{2}$/.test(value) ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    throw new GraphQLError('DateTime must be an ISO 8601 timestamp with an offset.', { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return date;
};

/** Timestamps exactly as REST shows them (D4). */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'UTC timestamp with six fractional digits, for example 2026-11-22T09:30:00.123000Z.',
  serialize: (value) => formatTimestamp(value instanceof Date ? value : new Date(String(value))),
  parseValue: parse,
  parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : undefined),
});
