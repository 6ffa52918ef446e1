import type { ReactNode } from 'react';
import { Form, SelectField, TextField } from './form';
import { useListAddress } from './list-return';
import { formatEnum } from './format';
import { Pending } from './layout';
import { Pager } from './pager';
import { navigateToFilters, type Location } from './router';

export interface ListPageInfo {
  page: number;
  lastPage: number;
  total: number;
}

/** The pages a list may ask the service for (its `page` argument's range). */
const LAST_PAGE_ASKED = 100_000;

/**
 * The page a list's address asks for (`?page=`), 1 when none or nonsense (`1.5`, `0`, `x`): sent as it was, the
 * service refused it in GraphQL's words.
 */
export const pageOf = (location: Location) => {
  const page = Number(location.query.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= LAST_PAGE_ASKED ? page : 1;
};

/** The status a list's address asks for (`?status=`), undefined when none or not one of `statuses`. */
export const statusOf = <S extends string>(location: Location, statuses: readonly S[]): S | undefined =>
  statuses.find((status) => status === location.query.get('status'));

/**
 * A list as every screen of lists draws it (docs/decisions.md D34): its heading, a filter form whose values become
 * the address's query (so a filtered list is a link), the loading line, the total announced, the items, and the
 * pager; the service pages the list in the database.
 */
export function FilteredList({
  heading,
  label,
  location,
  fields,
  flags,
  filters,
  fetching,
  error,
  pageInfo,
  one,
  many,
  notice,
  children,
}: {
  heading: string;
  /** The filter form's name to assistive technology ("Filter orders"). */
  label: string;
  location: Location;
  /** The form's text fields and ticked boxes that go into the address. */
  fields: string[];
  flags?: string[];
  filters: ReactNode;
  fetching: boolean;
  error?: { message: string };
  pageInfo?: ListPageInfo;
  /** "order", "orders": what the total counts. */
  one: string;
  many: string;
  /** Shown under the filters whatever the list holds: what an action on the list just did (`ScreenOutcome`). */
  notice?: ReactNode;
  children: ReactNode;
}) {
  useListAddress(location);
  return (
    <>
      <h1>{heading}</h1>
      <Form
        submitLabel="Filter"
        className="form inline"
        label={label}
        onSubmit={(form) => navigateToFilters(location.path, form, fields, flags)}
      >
        {filters}
      </Form>
      {notice}
      <Pending fetching={fetching && !pageInfo} error={error} />
      {pageInfo && (
        <>
          <p role="status">{pageInfo.total === 1 ? `1 ${one}` : `${pageInfo.total.toLocaleString()} ${many}`}</p>
          {pageInfo.total > 0 && children}
          <Pager location={location} page={pageInfo.page} lastPage={pageInfo.lastPage} />
        </>
      )}
    </>
  );
}

/**
 * The fields filter forms share: each shows what the address asks for now (keyed by it, so a link or "back" redraws
 * the field), and the search says what it matches.
 */
export function SearchFilter({ location, hint }: { location: Location; hint: string }) {
  const value = location.query.get('search') ?? '';
  return <TextField name="search" label="Search" type="search" hint={hint} defaultValue={value} key={value} />;
}

/** The status select; a status the address names that is none (`?status=BOGUS`) is said to be left out. */
export function StatusFilter({ location, statuses }: { location: Location; statuses: readonly string[] }) {
  const asked = location.query.get('status');
  const value = statusOf(location, statuses) ?? '';
  return (
    <SelectField
      name="status"
      label="Status"
      hint={asked && !value ? `“${asked}” is not a status: every status is shown.` : undefined}
      defaultValue={value}
      key={value}
      options={[{ value: '', label: 'Any status' }, ...statuses.map((s) => ({ value: s, label: formatEnum(s) }))]}
    />
  );
}

/** A box ticked when the address has the flag. */
export function CheckFilter({ name, label, location }: { name: string; label: string; location: Location }) {
  const checked = location.query.has(name);
  return (
    <label className="check">
      <input type="checkbox" name={name} defaultChecked={checked} key={`${name}-${checked}`} /> {label}
    </label>
  );
}

export interface Column<T> {
  label: string;
  cell: (item: T) => ReactNode;
}

/** A list's items as a table, each row a card at phone width with every cell labelled by its column. */
export function CardTable<T extends { id: string }>({
  items,
  columns,
  label,
}: {
  items: readonly T[];
  columns: Column<T>[];
  /** The table's accessible name, when its heading does not give it one. */
  label?: string;
}) {
  return (
    <table className="cards" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column.label}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id}>
            {columns.map((column) => (
              <td data-label={column.label} key={column.label}>
                {column.cell(item)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
