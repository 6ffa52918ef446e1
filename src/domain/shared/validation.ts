import { isId } from './ids';
import { FieldErrors, ValidationError } from '../../shared/errors';

/** C0 control characters other than tab, line feed and carriage return (D25): PostgreSQL refuses NUL outright. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/;
/** A surrogate not part of a pair: it has no UTF-8 form, so PostgreSQL could only store it mangled. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** ISO 8601 date and time with an explicit offset: `2026-12-01T09:30:00-05:00`, seconds and up to 6 decimals optional. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** `Array.isArray` narrowing to `unknown[]`: the items of an input are as unknown as the input itself. */
const isArray = (value: unknown): value is unknown[] => Array.isArray(value);

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

/** The UTC offset an ISO 8601 date-time was written with, in minutes east of UTC (`Z` is 0); 0 when it does not parse. */
export function offsetMinutesOf(text: string): number {
  const match = DATE_TIME.exec(text.trim());
  if (!match?.[8]) return 0;
  return (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10]));
}

/** What a text value must be to be stored as written (D25); shared with paths and lookups that bypass a Validator. */
export const isStorableText = (value: string): boolean =>
  !CONTROL_CHARACTERS.test(value) && !LONE_SURROGATE.test(value);

/**
 * Collects field errors for one input so that a request reports every problem at once. Each reader
 * returns the parsed value (or undefined when absent or invalid); `done()` throws when anything failed.
 * Field names are the snake_case names of the REST contract, shared by both doors (D2, D14).
 */
export class Validator {
  /** `prefix` and `errors` are set for nested readers (`addons.0`), which report into their parent's map. */
  constructor(
    private readonly input: Record<string, unknown>,
    private readonly prefix = '',
    private readonly errors: FieldErrors = {},
  ) {}

  fail(field: string, message: string): void {
    (this.errors[this.key(field)] ??= []).push(message);
  }

  hasErrors(field?: string): boolean {
    return field ? field in this.errors : Object.keys(this.errors).length > 0;
  }

  done(): void {
    if (this.hasErrors()) throw new ValidationError(this.errors);
  }

  private present(field: string): boolean {
    const value = this.input[field];
    return value !== undefined && value !== null && value !== '';
  }

  private missing(field: string, required: boolean): boolean {
    if (this.present(field)) return false;
    if (required) this.fail(field, `The ${this.label(field)} field is required.`);
    return true;
  }

  string(field: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
    if (this.missing(field, opts.required ?? false)) return undefined;
    const value = this.input[field];
    if (typeof value !== 'string')
      return (this.fail(field, `The ${this.label(field)} field must be a string.`), undefined);
    if (!this.storable(field, value)) return undefined;
    const trimmed = value.trim();
    if (opts.required && trimmed === '')
      return (this.fail(field, `The ${this.label(field)} field is required.`), undefined);
    if (opts.max !== undefined && [...trimmed].length > opts.max) {
      return (
        this.fail(field, `The ${this.label(field)} field must not be greater than ${opts.max} characters.`),
        undefined
      );
    }
    return trimmed;
  }

  /** Every text reader passes here, so no string reaches the database with bytes it refuses (D25). */
  private storable(field: string, value: string): boolean {
    if (CONTROL_CHARACTERS.test(value))
      return (this.fail(field, `The ${this.label(field)} field must not contain control characters.`), false);
    if (LONE_SURROGATE.test(value))
      return (this.fail(field, `The ${this.label(field)} field must be valid Unicode text.`), false);
    return true;
  }

  email(field: string, opts: { required?: boolean } = {}): string | undefined {
    const value = this.string(field, { ...opts, max: 254 });
    if (value === undefined) return undefined;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
      return (this.fail(field, `The ${this.label(field)} field must be a valid email address.`), undefined);
    }
    return value.toLowerCase();
  }

  /** An absolute http(s) URL of at most 2048 characters: where a payer is sent back after a checkout (D9). */
  httpUrl(field: string): string | undefined {
    const value = this.string(field, { max: 2048 });
    if (value === undefined || isHttpUrl(value)) return value;
    return (this.fail(field, `The ${this.label(field)} field must be an absolute http(s) URL.`), undefined);
  }

  /** A resource id (a UUID), for filters. */
  id(field: string): string | undefined {
    const value = this.string(field, { max: 36 });
    if (value !== undefined && !isId(value)) this.fail(field, `The ${this.label(field)} field must be a valid id.`);
    return value;
  }

  /** An ISO 8601 date and time with an explicit offset that names a real instant (D12, D25). */
  dateTime(field: string, opts: { required?: boolean } = {}): Date | undefined {
    const text = this.string(field, { ...opts, max: 40 });
    if (text === undefined) return undefined;
    if (!DATE_TIME.test(text)) {
      return (
        this.fail(field, `The ${this.label(field)} field must be an ISO 8601 date and time with an explicit offset.`),
        undefined
      );
    }
    const date = parseDateTime(text);
    if (!date)
      return (this.fail(field, `The ${this.label(field)} field must be a date and time that exists.`), undefined);
    return date;
  }

  /** As `dateTime`, with the offset the time was written with (D29: shown back to the client as they gave it). */
  zonedDateTime(field: string, opts: { required?: boolean } = {}): { date: Date; offsetMinutes: number } | undefined {
    const date = this.dateTime(field, opts);
    return date && { date, offsetMinutes: offsetMinutesOf(String(this.input[field])) };
  }

  /** Accepts a number or a decimal string of digits (query strings), so both doors share one rule. */
  integer(field: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    if (this.missing(field, opts.required ?? false)) return undefined;
    const raw = this.input[field];
    const value = typeof raw === 'string' && /^-?\d{1,15}$/.test(raw.trim()) ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      return (this.fail(field, `The ${this.label(field)} field must be an integer.`), undefined);
    }
    if (opts.min !== undefined && value < opts.min) {
      return (this.fail(field, `The ${this.label(field)} field must be at least ${opts.min}.`), undefined);
    }
    if (opts.max !== undefined && value > opts.max) {
      return (this.fail(field, `The ${this.label(field)} field must not be greater than ${opts.max}.`), undefined);
    }
    return value;
  }

  array(field: string, opts: { required?: boolean; min?: number; max?: number } = {}): unknown[] | undefined {
    const value = this.input[field];
    if (value === undefined || value === null) {
      if (opts.required) this.fail(field, `The ${this.label(field)} field is required.`);
      return undefined;
    }
    if (!isArray(value)) return (this.fail(field, `The ${this.label(field)} field must be an array.`), undefined);
    if (opts.min !== undefined && value.length < opts.min) {
      return (
        this.fail(
          field,
          `The ${this.label(field)} field must have at least ${opts.min} item${opts.min === 1 ? '' : 's'}.`,
        ),
        undefined
      );
    }
    if (opts.max !== undefined && value.length > opts.max) {
      return (this.fail(field, `The ${this.label(field)} field must not have more than ${opts.max} items.`), undefined);
    }
    return value;
  }

  /** A nested reader for `field.N` entries, reporting under keys such as `addons.0.code`. */
  nested(prefix: string, input: unknown): Validator | undefined {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      this.fail(prefix, `The ${this.label(prefix)} field must be an object.`);
      return undefined;
    }
    return new Validator(input as Record<string, unknown>, this.key(prefix), this.errors);
  }

  private key(field: string): string {
    return this.prefix ? `${this.prefix}.${field}` : field;
  }

  /** `service_type` -> `service type`, `addons.0.code` as it is: the name as the messages read. */
  private label(field: string): string {
    return this.key(field).replace(/_/g, ' ');
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], opts: { required?: boolean } = {}): T | undefined {
    if (this.missing(field, opts.required ?? false)) return undefined;
    const value = this.input[field];
    if (typeof value !== 'string' || !allowed.includes(value as T)) {
      return (this.fail(field, `The selected ${this.label(field)} is invalid.`), undefined);
    }
    return value as T;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.host);
  } catch {
    return false;
  }
}

/** A filter for text containing `search` as typed: LIKE's wildcards in it match themselves. */
export function containing(search: string): { $ilike: string } {
  return { $ilike: `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
}
