import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { isFourDigitYear, OUTSIDE_FOUR_DIGIT_YEARS, parseDateTime } from '../../../domain/shared/field-readers';
import { formatTimestamp } from '../../format';

/** A date-time argument as the client wrote it: the instant, and the text with its offset (D29 shows times back in it). */
class WrittenDateTime extends Date {
  constructor(
    readonly written: string,
    date: Date,
  ) {
    super(date.getTime());
  }
}

/** The text a date-time argument was written as, for the services that read it as REST's JSON (with its offset). */
export const writtenDateTime = (date: Date): string =>
  date instanceof WrittenDateTime ? date.written : date.toISOString();

/** The same rule as REST's date-times: an explicit offset and a time that exists, never moved (D12, D25). */
const parse = (value: unknown): Date => {
  const date = typeof value === 'string' ? parseDateTime(value) : undefined;
  if (!date) throw badDateTime('Must be an ISO 8601 date and time with an explicit offset that exists.');
  if (!isFourDigitYear(date)) throw badDateTime(`Must be a date and time that ${OUTSIDE_FOUR_DIGIT_YEARS}.`);
  return new WrittenDateTime(value as string, date);
};

const badDateTime = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

/** Timestamps exactly as REST shows them (D4). */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description:
    'A point in time. Answered in UTC with six fractional digits (2026-11-22T09:30:00.123000Z); accepted as ISO 8601 with an explicit offset (2026-12-01T09:30:00-05:00).',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc3339',
  serialize: (value) => formatTimestamp(value instanceof Date ? value : new Date(String(value))),
  parseValue: parse,
  parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : undefined),
});
