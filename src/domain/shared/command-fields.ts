import { z } from 'zod';
import {
  FIELD,
  type IntegerRule,
  type ListRule,
  type Read,
  readEmail,
  readHttpUrl,
  readId,
  readInteger,
  readList,
  readOneOf,
  readText,
  readZonedDateTime,
} from './field-readers';

/**
 * The building blocks of typed commands: one zod schema per operation input, written with camelCase keys (the
 * command the service takes). Each block reads with the shared rules of `field-readers.ts`, so its messages are
 * those of D2, and carries the JSON Schema the OpenAPI document shows for it (`.meta`), so the limits are
 * written once. The doors turn keys and error paths into their own casing (`src/api/commands.ts`).
 */

type JsonSchema = Record<string, unknown>;

/** A required field reads to its value; an optional one may also read to undefined and may be left out. */
type Field<T, R extends boolean | undefined> = R extends true
  ? z.ZodType<T, unknown>
  : z.ZodOptional<z.ZodType<T | undefined, unknown>>;

/** A field read by `read` (a rule written as those of `field-readers.ts`) and shown as `json`; areas use it for their own rules. */
export function field<T, R extends boolean | undefined>(
  required: boolean | undefined,
  read: (raw: unknown) => Read<T>,
  json: JsonSchema,
): Field<T, R> {
  const schema = z
    .unknown()
    .transform((raw, ctx) => {
      const result = read(raw);
      if ('error' in result) {
        ctx.addIssue({ code: 'custom', message: result.error, input: raw });
        return z.NEVER;
      }
      return result.value;
    })
    .meta(json);
  return (required ? schema : schema.optional()) as unknown as Field<T, R>;
}

const defined = (json: JsonSchema): JsonSchema =>
  Object.fromEntries(Object.entries(json).filter(([, value]) => value !== undefined));

/** Trimmed text of at most `max` characters (D25). */
export const text = <R extends boolean | undefined = undefined>(rule: {
  max: number;
  required?: R;
  pattern?: string;
  printed?: boolean;
}) =>
  field<string, R>(
    rule.required,
    (raw) => readText(raw, rule),
    defined({ type: 'string', maxLength: rule.max, pattern: rule.pattern }),
  );

export const email = <R extends boolean | undefined = undefined>(rule: { required?: R } = {}) =>
  field<string, R>(rule.required, (raw) => readEmail(raw, rule), { type: 'string', format: 'email', maxLength: 254 });

export const httpUrl = () =>
  field<string, false>(false, readHttpUrl, { type: 'string', format: 'uri', maxLength: 2048 });

/** A resource id used as a filter or a reference: a UUID. */
export const id = () => field<string, false>(false, readId, { type: 'string', format: 'uuid', maxLength: 36 });

/** An instant with the offset it was written in (D12, D29). */
export const zonedDateTime = <R extends boolean | undefined = undefined>(rule: { required?: R } = {}) =>
  field<{ date: Date; offsetMinutes: number }, R>(rule.required, (raw) => readZonedDateTime(raw, rule), {
    type: 'string',
    format: 'date-time',
    maxLength: 40,
  });

/** An integer, as a JSON number or (in a query string) as digits. */
export const integer = <R extends boolean | undefined = undefined>(rule: IntegerRule & { required?: R }) =>
  field<number, R>(
    rule.required,
    (raw) => readInteger(raw, rule),
    defined({ type: 'integer', minimum: rule.min, maximum: rule.max }),
  );

export const oneOf = <T extends string, R extends boolean | undefined = undefined>(
  allowed: readonly T[],
  rule: { required?: R } = {},
) => field<T, R>(rule.required, (raw) => readOneOf(raw, allowed, rule), { type: 'string', enum: [...allowed] });

/** A list of `min` to `max` items, each read by `item`; its errors are keyed by position (`addons.0.code`). */
export function list<I extends z.ZodType, R extends boolean | undefined = undefined>(
  item: I,
  rule: ListRule & {
    required?: R;
    max: number;
    /** A rule across the items (each once), run on those that read, even when others did not: every error at once. */
    across?: (items: { index: number; value: z.output<I> }[], ctx: z.RefinementCtx) => void;
    /** Each item kept once, in the order first given (a set given as a list: an interpreter's languages). */
    distinct?: boolean;
  },
): Field<z.output<I>[], R> {
  const schema = z
    .unknown()
    .transform((raw, ctx) => {
      const result = readList(raw, rule);
      if ('error' in result) {
        ctx.addIssue({ code: 'custom', message: result.error, input: raw });
        return z.NEVER;
      }
      if (result.value === undefined) return undefined;
      const items: { index: number; value: z.output<I> }[] = [];
      result.value.forEach((entry, index) => {
        const parsed = item.safeParse(entry);
        if (parsed.success) items.push({ index, value: parsed.data });
        else for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [index, ...issue.path] });
      });
      rule.across?.(items, ctx);
      const values = items.map(({ value }) => value);
      return rule.distinct ? [...new Set(values)] : values;
    })
    .meta(defined({ type: 'array', minItems: rule.min, maxItems: rule.max, items: jsonOf(item) }));
  return (rule.required ? schema : schema.optional()) as unknown as Field<z.output<I>[], R>;
}

/** A nested object (`shipping_address`), its fields' errors keyed under its name. */
export function nested<S extends z.ZodRawShape, R extends boolean | undefined = undefined>(
  shape: S,
  rule: { required?: R } = {},
): Field<z.output<z.ZodObject<S>>, R> {
  const object = z.object(shape);
  const schema = z
    .unknown()
    .transform((raw, ctx) => {
      if (raw === undefined && rule.required) {
        ctx.addIssue({ code: 'custom', message: `The ${FIELD} field is required.`, input: raw });
        return z.NEVER;
      }
      if (raw === undefined || (raw === null && !rule.required)) return undefined;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        ctx.addIssue({ code: 'custom', message: `The ${FIELD} field must be an object.`, input: raw });
        return z.NEVER;
      }
      const parsed = object.safeParse(raw);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
      return z.NEVER;
    })
    .meta(jsonOf(object));
  return (rule.required ? schema : schema.optional()) as unknown as Field<z.output<z.ZodObject<S>>, R>;
}

/**
 * A rule across a command's fields, checked whenever the fields it reads were read, even if others failed, so a
 * request hears every error at once (D2).
 */
export const across = <T>(fields: readonly (keyof T & string)[], rule: (command: T, ctx: z.RefinementCtx<T>) => void) =>
  z.superRefine(rule, {
    when: (payload) => !payload.issues.some((issue) => fields.includes(issue.path?.[0] as keyof T & string)),
  });

/** A window of time whose `to`, when both ends are given, comes after its `from` (list filters). */
export const windowInOrder = <T extends { from?: { date: Date }; to?: { date: Date } }>() =>
  across<T>(['from', 'to'], (command, ctx) => {
    if (command.from && command.to && command.from.date >= command.to.date)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'The to field must be after the from field.',
        input: command.to,
      });
  });

/** The JSON Schema of a request part, as a client writes it. */
export function jsonOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return json;
}
