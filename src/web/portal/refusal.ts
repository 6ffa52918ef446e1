import type { CombinedError } from 'urql';
import { refusalOf, type Refusal } from '../shared/refusal';

/**
 * A refusal as the portal's forms show it: a message about one item of a list (`fileIds.0`, `addons.1.quantity`)
 * belongs to the list's field, so no field path ever reaches a person.
 */
export function personRefusal(error: CombinedError | undefined): Refusal | undefined {
  const refusal = refusalOf(error);
  if (!refusal) return undefined;
  const fields: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(refusal.fields)) {
    const field = path.replace(/\.\d.*$/, '');
    fields[field] = [...new Set([...(fields[field] ?? []), ...messages])];
  }
  return { fields, messages: refusal.messages };
}
