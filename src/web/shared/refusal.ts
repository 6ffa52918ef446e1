/** A refusal as a form shows it: the service's messages by field (GraphQL's argument names), and the rest. */
export interface Refusal {
  fields: Record<string, string[]>;
  messages: string[];
}

/** What a refusal is read from: urql's `CombinedError`, as far as it is read here. */
export interface ErrorAnswer {
  graphQLErrors: readonly { message: string; extensions?: Record<string, unknown> }[];
  networkError?: unknown;
}

/** A refusal made in the page, before anything was sent: one message beside each named field. */
export const fieldRefusal = (fields: Record<string, string>): Refusal => ({
  fields: Object.fromEntries(Object.entries(fields).map(([name, text]) => [name, [text]])),
  messages: [],
});

/**
 * Reads an error answer: BAD_USER_INPUT carries `errors` keyed by the field it names (`reason`, `amountCents`,
 * `input.scheduledAt`); every other error is a message of the whole form. A network failure says so.
 */
export function refusalOf(error: ErrorAnswer | undefined): Refusal | undefined {
  if (!error) return undefined;
  const fields: Record<string, string[]> = {};
  const messages: string[] = [];
  for (const e of error.graphQLErrors) {
    const named = e.extensions?.errors as Record<string, string[]> | undefined;
    if (e.extensions?.code === 'BAD_USER_INPUT' && named && Object.keys(named).length > 0) {
      for (const [field, list] of Object.entries(named))
        fields[field.replace(/^input\./, '')] = field === 'status' ? list.map(statusInWords) : list;
    } else if (e.extensions?.code === 'RATE_LIMITED' && typeof e.extensions.retryAfterSeconds === 'number') {
      messages.push(tooManyAttempts(e.extensions.retryAfterSeconds));
    } else messages.push(e.message);
  }
  if (error.networkError) messages.push('The service could not be reached. Check the connection and try again.');
  return { fields, messages };
}

/** The service's 429 (D16, D24) said with how long to wait, which its `retryAfterSeconds` tells. */
const tooManyAttempts = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts: try again in ${seconds < 60 ? `${seconds} seconds` : `${minutes} minute${minutes === 1 ? '' : 's'}`}.`;
};

/**
 * The messages of a refusal that no field on the form shows, so none is lost. Each is a sentence that names what it
 * is about (D2), shown as it is: the field's name in the API (`interpreterId`) means nothing to the person reading.
 */
export function unplacedMessages(refusal: Refusal | undefined, shown: readonly string[]): string[] {
  if (!refusal) return [];
  const placed = new Set(shown);
  return [
    ...refusal.messages,
    ...Object.entries(refusal.fields)
      .filter(([field]) => !placed.has(field))
      .flatMap(([, list]) => list),
  ];
}

/**
 * The words of a refusal for the state of what a move acts on (D2: a 422 under `status`, "Cannot hold the order while
 * the status is processing."), when that is what the service answered: the page that offered the move is out of date.
 */
export const refusedForState = (error: ErrorAnswer | undefined): string | undefined =>
  refusalOf(error)?.fields.status?.join(' ');

/** A state refusal's status codes in words: "while the status is in_review" -> "while the status is in review". */
const statusInWords = (message: string) =>
  message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (code) => code.replaceAll('_', ' '));
