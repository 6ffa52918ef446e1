import { FieldErrors, ValidationError } from './errors';

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
    if (typeof value !== 'string') return this.fail(field, `The ${this.label(field)} field must be a string.`), undefined;
    const trimmed = value.trim();
    if (opts.required && trimmed === '') return this.fail(field, `The ${this.label(field)} field is required.`), undefined;
    if (opts.max !== undefined && [...trimmed].length > opts.max) {
      return this.fail(field, `The ${this.label(field)} field must not be greater than ${opts.max} characters.`), undefined;
    }
    return trimmed;
  }

  email(field: string, opts: { required?: boolean } = {}): string | undefined {
    const value = this.string(field, { ...opts, max: 254 });
    if (value === undefined) return undefined;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
      return this.fail(field, `The ${this.label(field)} field must be a valid email address.`), undefined;
    }
    return value.toLowerCase();
  }

  /** Accepts a number or a decimal string of digits (query strings), so both doors share one rule. */
  integer(field: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    if (this.missing(field, opts.required ?? false)) return undefined;
    const raw = this.input[field];
    const value = typeof raw === 'string' && /^-?\d{1,15}$/.test(raw.trim()) ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      return this.fail(field, `The ${this.label(field)} field must be an integer.`), undefined;
    }
    if (opts.min !== undefined && value < opts.min) {
      return this.fail(field, `The ${this.label(field)} field must be at least ${opts.min}.`), undefined;
    }
    if (opts.max !== undefined && value > opts.max) {
      return this.fail(field, `The ${this.label(field)} field must not be greater than ${opts.max}.`), undefined;
    }
    return value;
  }

  array(field: string, opts: { required?: boolean; min?: number; max?: number } = {}): unknown[] | undefined {
    const value = this.input[field];
    if (value === undefined || value === null) {
      if (opts.required) this.fail(field, `The ${this.label(field)} field is required.`);
      return undefined;
    }
    if (!Array.isArray(value)) return this.fail(field, `The ${this.label(field)} field must be an array.`), undefined;
    if (opts.min !== undefined && value.length < opts.min) {
      return this.fail(field, `The ${this.label(field)} field must have at least ${opts.min} item${opts.min === 1 ? '' : 's'}.`), undefined;
    }
    if (opts.max !== undefined && value.length > opts.max) {
      return this.fail(field, `The ${this.label(field)} field must not have more than ${opts.max} items.`), undefined;
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
      return this.fail(field, `The selected ${this.label(field)} is invalid.`), undefined;
    }
    return value as T;
  }
}

