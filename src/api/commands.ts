import type { z } from 'zod';
import { FIELD } from '../domain/shared/field-readers';
import { type FieldErrors, ValidationError } from '../shared/errors';

/**
 * Where a request's input becomes a typed command: parsed once, at the door, by the operation's schema
 * (`src/domain/<area>/*.commands.ts`). A refusal is a 422 keyed by REST's snake_case field names, which the
 * GraphQL door then shows in its own casing (D2, D14).
 */

/** REST: the JSON body or query of the request, whose snake_case keys are the contract's names. */
export const restCommand = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> =>
  readCommand(schema, camelKeys(input, 0));

/** GraphQL: arguments and input objects, already camelCase. */
export const graphqlCommand = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> =>
  readCommand(schema, input);

function readCommand<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // Anything but an object names no field: each required one is then reported missing.
  const parsed = schema.safeParse(typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {});
  if (parsed.success) return parsed.data;
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map((part) => (typeof part === 'string' ? snakeCase(part) : String(part))).join('.');
    (errors[key] ??= []).push(issue.message.replaceAll(FIELD, key.replace(/_/g, ' ')));
  }
  throw new ValidationError(errors);
}

/** Deep enough for any command (an address inside a quote); deeper input is left as it is, for the schema to refuse. */
const MAX_DEPTH = 4;
const SNAKE_KEY = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;

/**
 * `{ source_language }` to `{ sourceLanguage }`. Only snake_case keys are the contract's: a camelCase key sent to
 * REST is an unknown field, dropped like any other, so `sourceLanguage` is never read from a REST body.
 *
 * A key with brackets (`status[]=void`, `status[a]=void`, as PHP and Rails write arrays in a query) is read as a list
 * under its name, as a repeated `status=a&status=b` is: a field that takes one value then refuses it (422), where
 * dropping it as unknown would answer the list unfiltered, as if the filter had matched everything.
 */
function camelKeys(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => camelKeys(item, depth + 1));
  const camel: Record<string, unknown> = {};
  for (const [written, item] of Object.entries(value)) {
    const bracket = written.indexOf('[');
    const key = bracket > 0 && written.endsWith(']') ? written.slice(0, bracket) : written;
    const name = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    // Only a name the contract could have written: `line_1` is not another spelling of `line1`.
    if (!SNAKE_KEY.test(key) || snakeCase(name) !== key) continue;
    const read = camelKeys(item, depth + 1);
    camel[name] = key === written && camel[name] === undefined ? read : [...listOf(camel[name]), ...listOf(read)];
  }
  return camel;
}

const listOf = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** `postalCode` to `postal_code`, `line1` as it is. */
export const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
