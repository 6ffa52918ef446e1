import type { PlacedBy } from '../../../domain/identity/placed-by';
import type { PlacedByJson } from '../responses/priced-work.response';

/** D27: who made a quote, order or booking; an added field, so v1 clients that do not know it are unaffected (D4). */
export const serializePlacedBy = ({ kind, member }: PlacedBy): PlacedByJson => ({
  kind,
  member: member && { id: member.id, name: member.name, email: member.email },
});
