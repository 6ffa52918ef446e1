import { SelectField, TextField } from '../shared/form';
import { formatEnum } from '../shared/format';
import type { Location } from '../shared/router';

/**
 * The fields a queue's filter form shares: each shows what the address asks for now (keyed by it, so a link or
 * "back" redraws the field), and the search says what it matches.
 */
export function SearchFilter({ location }: { location: Location }) {
  const value = location.query.get('search') ?? '';
  return (
    <TextField
      name="search"
      label="Search"
      type="search"
      hint="Number, reference or account"
      defaultValue={value}
      key={value}
    />
  );
}

export function StatusFilter({ location, statuses }: { location: Location; statuses: readonly string[] }) {
  const value = location.query.get('status') ?? '';
  return (
    <SelectField
      name="status"
      label="Status"
      defaultValue={value}
      key={value}
      options={[{ value: '', label: 'Any status' }, ...statuses.map((s) => ({ value: s, label: formatEnum(s) }))]}
    />
  );
}

/** "1 order", "2,480 orders": the total of a list, announced when it changes. */
export function Count({ total, one, many }: { total: number; one: string; many: string }) {
  return <p role="status">{total === 1 ? `1 ${one}` : `${total.toLocaleString()} ${many}`}</p>;
}
