import { isId } from './ids';

/**
 * The rules every input field is read by, as pure functions shared by the typed commands (`command-fields.ts`) and
 * the older `Validator`. A refusal is a message whose `{field}` the caller replaces with the field's label
 * (`source language`), so both doors word it the same (D2, D14).
 */
export type Read<T> = { value: T | undefined } | { error: string };

export const FIELD = '{field}';

/** C0 control characters other than tab, line feed and carriage return (D25): PostgreSQL refuses NUL outright. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/;
/** A surrogate not part of a pair: it has no UTF-8 form, so PostgreSQL could only store it mangled. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** ISO 8601 date and time with an explicit offset: `2026-12-01T09:30:00-05:00`, seconds and up to 6 decimals optional. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;
/** White space and characters that show nothing (zero-width spaces and joiners, direction marks): text made only of them says nothing. */
const INVISIBLE = /^[\s\p{Cf}]*$/u;
/**
 * Direction embeddings, overrides and isolates: in text printed on an invoice or a receipt they can make it read as
 * other text than it is (a purchase order shown reversed), so such fields refuse them. Direction marks stay allowed.
 */
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
/** A character an e-mail address never holds: white space, or one that shows nothing. */
const NOT_IN_EMAIL = /[\s\p{Cf}]/u;

const fail = (error: string): { error: string } => ({ error });
const ok = <T>(value: T | undefined): { value: T | undefined } => ({ value });

/** Absent, null and the empty string all read as "not given" (D2). */
export const isAbsent = (value: unknown): boolean => value === undefined || value === null || value === '';

const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/**
 * The instant an ISO 8601 date-time with an offset names, or undefined when it is malformed or names no real
 * time: `Date` would silently move 30 February to 2 March (D25).
 */
export function parseDateTime(text: string): Date | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = [
    1, 2, 3, 4, 5, 6, 9, 10,
  ].map((i) => (match[i] === undefined ? undefined : Number(match[i]))) as number[];
  const real =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  if (!real || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Whether an instant falls in the years 0001 to 9999 in UTC, the four-digit years every answer prints (D4) and the
 * database stores: `9999-12-31T23:30:00-12:00` is written in 9999 but falls in 10000 (D25).
 */
export const isFourDigitYear = (date: Date): boolean => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999;

/** The refusal of an instant outside the four-digit years, worded for a field (`{field}`) or for the GraphQL scalar. */
export const OUTSIDE_FOUR_DIGIT_YEARS = 'must fall between the years 0001 and 9999 in UTC';

/** The UTC offset an ISO 8601 date-time was written with, in minutes east of UTC (`Z` is 0); 0 when it does not parse. */
export function offsetMinutesOf(text: string): number {
  const match = DATE_TIME.exec(text.trim());
  if (!match?.[8]) return 0;
  return (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10]));
}

/** What a text value must be to be stored as written (D25); shared with paths and lookups that read no command. */
export const isStorableText = (value: string): boolean =>
  !CONTROL_CHARACTERS.test(value) && !LONE_SURROGATE.test(value);

export interface TextRule {
  required?: boolean;
  max?: number;
  /** Printed on invoices and receipts as the client wrote it: no direction controls (`DIRECTION_CONTROLS`). */
  printed?: boolean;
}

/** Trimmed text of at most `max` code points, with nothing PostgreSQL would refuse or mangle (D25). */
export function readText(raw: unknown, rule: TextRule = {}): Read<string> {
  if (isAbsent(raw)) return rule.required ? fail(`The ${FIELD} field is required.`) : ok(undefined);
  if (typeof raw !== 'string') return fail(`The ${FIELD} field must be a string.`);
  if (CONTROL_CHARACTERS.test(raw)) return fail(`The ${FIELD} field must not contain control characters.`);
  if (LONE_SURROGATE.test(raw)) return fail(`The ${FIELD} field must be valid Unicode text.`);
  if (rule.printed && DIRECTION_CONTROLS.test(raw))
    return fail(`The ${FIELD} field must not contain text-direction control characters.`);
  const trimmed = INVISIBLE.test(raw) ? '' : raw.trim();
  if (rule.required && trimmed === '') return fail(`The ${FIELD} field is required.`);
  if (rule.max !== undefined && [...trimmed].length > rule.max)
    return fail(`The ${FIELD} field must not be greater than ${rule.max} characters.`);
  return ok(trimmed);
}

/** An e-mail address of at most 254 characters, lower-cased. */
export function readEmail(raw: unknown, rule: { required?: boolean } = {}): Read<string> {
  const text = readText(raw, { ...rule, max: 254 });
  if ('error' in text || text.value === undefined) return text;
  return isEmail(text.value) ? ok(text.value.toLowerCase()) : fail(`The ${FIELD} field must be a valid email address.`);
}

/**
 * One `@` after a local part, and a domain of two or more labels, none empty: `a@firm.example.` (the same mailbox as
 * `a@firm.example`, D36) and `a@firm..example` are not addresses, nor one holding white space or a character that
 * shows nothing. Checked in one pass each, with no pattern that could backtrack on a client's text.
 */
function isEmail(text: string): boolean {
  const at = text.indexOf('@');
  if (at < 1 || at !== text.lastIndexOf('@') || NOT_IN_EMAIL.test(text)) return false;
  const labels = text.slice(at + 1).split('.');
  return labels.length >= 2 && labels.every((label) => label !== '');
}

/** An absolute http(s) URL of at most 2048 characters: where a payer is sent back after a checkout (D9). */
export function readHttpUrl(raw: unknown): Read<string> {
  const text = readText(raw, { max: 2048 });
  if ('error' in text || text.value === undefined || isHttpUrl(text.value)) return text;
  return fail(`The ${FIELD} field must be an absolute http(s) URL.`);
}

/** A resource id (a UUID), for filters. */
export function readId(raw: unknown): Read<string> {
  const text = readText(raw, { max: 36 });
  if ('error' in text || text.value === undefined || isId(text.value)) return text;
  return fail(`The ${FIELD} field must be a valid id.`);
}

/** An ISO 8601 date and time with an explicit offset that names a real instant (D12, D25), and that offset (D29). */
export function readZonedDateTime(
  raw: unknown,
  rule: { required?: boolean } = {},
): Read<{ date: Date; offsetMinutes: number }> {
  const text = readText(raw, { ...rule, max: 40 });
  if ('error' in text || text.value === undefined) return text as Read<never>;
  if (!DATE_TIME.test(text.value))
    return fail(`The ${FIELD} field must be an ISO 8601 date and time with an explicit offset.`);
  const date = parseDateTime(text.value);
  if (!date) return fail(`The ${FIELD} field must be a date and time that exists.`);
  if (!isFourDigitYear(date)) return fail(`The ${FIELD} field ${OUTSIDE_FOUR_DIGIT_YEARS}.`);
  return ok({ date, offsetMinutes: offsetMinutesOf(text.value) });
}

export interface IntegerRule {
  required?: boolean;
  min?: number;
  max?: number;
}

/** A number or a decimal string of digits (query strings), so both doors share one rule. */
export function readInteger(raw: unknown, rule: IntegerRule = {}): Read<number> {
  if (isAbsent(raw)) return rule.required ? fail(`The ${FIELD} field is required.`) : ok(undefined);
  const value = typeof raw === 'string' && /^-?\d{1,15}$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return fail(`The ${FIELD} field must be an integer.`);
  if (rule.min !== undefined && value < rule.min) return fail(`The ${FIELD} field must be at least ${rule.min}.`);
  if (rule.max !== undefined && value > rule.max)
    return fail(`The ${FIELD} field must not be greater than ${rule.max}.`);
  return ok(value);
}

/** One of a closed list of values, as written. */
export function readOneOf<T extends string>(
  raw: unknown,
  allowed: readonly T[],
  rule: { required?: boolean } = {},
): Read<T> {
  if (isAbsent(raw)) return rule.required ? fail(`The ${FIELD} field is required.`) : ok(undefined);
  return typeof raw === 'string' && allowed.includes(raw as T)
    ? ok(raw as T)
    : fail(`The selected ${FIELD} is invalid.`);
}

export interface ListRule {
  required?: boolean;
  min?: number;
  max?: number;
}

/** A list of `min` to `max` items; an empty string is not a list. */
export function readList(raw: unknown, rule: ListRule = {}): Read<unknown[]> {
  if (raw === undefined || raw === null) return rule.required ? fail(`The ${FIELD} field is required.`) : ok(undefined);
  if (!Array.isArray(raw)) return fail(`The ${FIELD} field must be an array.`);
  if (rule.min !== undefined && raw.length < rule.min)
    return fail(`The ${FIELD} field must have at least ${rule.min} item${rule.min === 1 ? '' : 's'}.`);
  if (rule.max !== undefined && raw.length > rule.max)
    return fail(`The ${FIELD} field must not have more than ${rule.max} items.`);
  return ok(raw as unknown[]);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.host);
  } catch {
    return false;
  }
}
