/**
 * Domain errors. Services throw these; each door maps them to its own wire shape in one place
 * (REST: api/http/error-handler.ts, GraphQL: api/graphql/format-error.ts).
 */
export type FieldErrors = Record<string, string[]>;

/** An error the client is meant to see. Anything else reaching a door is a bug: logged, answered as a bare 500. */
export abstract class DomainError extends Error {}

/** 404: a missing id, a malformed id and another account's resource all look the same (D2). */
export class NotFoundError extends DomainError {
  constructor() {
    super('Not found.');
  }
}

/** 410: the resource existed and was deleted on purpose; its message says why (D33). */
export class GoneError extends DomainError {}

/** 422: invalid input or a business rule that refuses the request, keyed by the field at fault (D2). */
export class ValidationError extends DomainError {
  constructor(readonly errors: FieldErrors) {
    super(summarize(errors));
  }

  static of(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

/** 401: no credentials, or credentials that match nothing usable. */
export class UnauthenticatedError extends DomainError {
  constructor() {
    super('Unauthenticated.');
  }
}

/** 403: known credentials that may not do this (an account not approved, an account key on a staff operation). */
export class ForbiddenError extends DomainError {
  constructor(message = 'Forbidden.') {
    super(message);
  }
}

/** 503: an outside provider failed during the request; nothing was changed (D2). */
export class ProviderUnavailableError extends DomainError {
  constructor(
    readonly provider: string,
    readonly retryAfterSeconds = 30,
    cause?: unknown,
  ) {
    super(`${provider} unavailable.`, { cause });
  }
}

/** 429: past the caller's rate limit (D16); `state` says when the window resets. */
export class TooManyAttemptsError extends DomainError {
  constructor(readonly state: { limit: number; remaining: number; resetInSeconds: number }) {
    super('Too Many Attempts.');
  }
}

/**
 * Thrown by a translation engine: the document has nothing it can translate (an image, a scan without text), so a
 * person must look (D11). Not a `DomainError`: the translation job puts the order on hold; no door sees it.
 */
export class UntranslatableError extends Error {}

/** The D2 summary: the first message, plus how many more there are. */
function summarize(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  if (more <= 0) return first;
  return `${first} (and ${more} more error${more === 1 ? '' : 's'})`;
}
