/**
 * Numbers as a person types them into a text field, read before anything is sent: a value, nothing (left empty), or
 * why it is not a number, in words. `Number('3 h')` is NaN, which JSON sends as null, and the service reads null as
 * "not given": a typo would have completed a booking without its overtime, or kept an account's documents for ever.
 */
export type Typed = { value: number | undefined } | { refusal: string };

const typed =
  (pattern: RegExp, example: string, value: (written: string) => number) =>
  (text: string): Typed => {
    // A decimal comma is read as a point; a thousands separator is not a number here.
    const written = text.trim().replace(',', '.');
    if (written === '') return { value: undefined };
    return pattern.test(written) ? { value: value(written) } : { refusal: `Write a number, such as ${example}.` };
  };

/** Hours, to the hundredth: `2`, `2.5`, `2,25`. */
export const typedHours = typed(/^\d{1,3}(?:\.\d{1,2})?$/, '2 or 2.5', Number);

/** An amount in the currency's units, read as cents: `12`, `12.5`, `12,50`. */
export const typedCents = typed(/^\d{1,9}(?:\.\d{1,2})?$/, '12 or 12.50', (written) =>
  Math.round(Number(written) * 100),
);

/** A whole number: `30`. */
export const typedWhole = typed(/^\d{1,9}$/, '30', Number);
