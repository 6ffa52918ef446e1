import type { CombinedError } from 'urql';
import { refusalOf, type Refusal } from '../shared/refusal';

/**
 * A refusal as the portal's forms show it, so no field path ever reaches a person: a message about one item of a
 * list (`fileIds.0`, `addons.1.quantity`) belongs to the list's field, and a message about a field the form does
 * not show (`fields`, the names its inputs claim) is shown by the submit button as a sentence of its own.
 */
export function personRefusal(error: CombinedError | undefined, fields: readonly string[] = []): Refusal | undefined {
  const refusal = refusalOf(error);
  if (!refusal) return undefined;
  const placed: Record<string, string[]> = {};
  const messages = [...refusal.messages];
  for (const [path, list] of Object.entries(refusal.fields)) {
    const field = path.replace(/\.\d.*$/, '');
    if (fields.includes(field)) placed[field] = [...new Set([...(placed[field] ?? []), ...list])];
    else messages.push(...list);
  }
  return { fields: placed, messages: [...new Set(messages)] };
}
