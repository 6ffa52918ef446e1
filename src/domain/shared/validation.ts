import { FieldErrors, ValidationError } from '../../shared/errors';
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
  type TextRule,
} from './field-readers';

export { isStorableText, offsetMinutesOf, parseDateTime } from './field-readers';

/**
 * Collects field errors for one input so that a request reports every problem at once, for the inputs not yet read
 * as typed commands (`command-fields.ts`); both read with the rules of `field-readers.ts`. Each reader returns the
 * parsed value (or undefined when absent or invalid); `done()` throws when anything failed. Field names are the
 * snake_case names of the REST contract, shared by both doors (D2, D14).
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

  private take<T>(field: string, read: Read<T>): T | undefined {
    if ('value' in read) return read.value;
    this.fail(field, read.error.replaceAll(FIELD, this.key(field).replace(/_/g, ' ')));
    return undefined;
  }

  string(field: string, rule: TextRule = {}): string | undefined {
    return this.take(field, readText(this.input[field], rule));
  }

  email(field: string, rule: { required?: boolean } = {}): string | undefined {
    return this.take(field, readEmail(this.input[field], rule));
  }

  httpUrl(field: string): string | undefined {
    return this.take(field, readHttpUrl(this.input[field]));
  }

  id(field: string): string | undefined {
    return this.take(field, readId(this.input[field]));
  }

  dateTime(field: string, rule: { required?: boolean } = {}): Date | undefined {
    return this.zonedDateTime(field, rule)?.date;
  }

  zonedDateTime(field: string, rule: { required?: boolean } = {}): { date: Date; offsetMinutes: number } | undefined {
    return this.take(field, readZonedDateTime(this.input[field], rule));
  }

  integer(field: string, rule: IntegerRule = {}): number | undefined {
    return this.take(field, readInteger(this.input[field], rule));
  }

  array(field: string, rule: ListRule = {}): unknown[] | undefined {
    return this.take(field, readList(this.input[field], rule));
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], rule: { required?: boolean } = {}): T | undefined {
    return this.take(field, readOneOf(this.input[field], allowed, rule));
  }

  /** A nested reader for `field.N` entries, reporting under keys such as `addons.0.code`. */
  nested(prefix: string, input: unknown): Validator | undefined {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      this.fail(prefix, `The ${this.key(prefix).replace(/_/g, ' ')} field must be an object.`);
      return undefined;
    }
    return new Validator(input as Record<string, unknown>, this.key(prefix), this.errors);
  }

  private key(field: string): string {
    return this.prefix ? `${this.prefix}.${field}` : field;
  }
}

/** A filter for text containing `search` as typed: LIKE's wildcards in it match themselves. */
export function containing(search: string): { $ilike: string } {
  return { $ilike: `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
}
