/** Money, times and statuses as a person reads them, in their own language settings and time zone. */
export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);

export const when = (iso: string | null | undefined) =>
  iso ? new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '—';

/** PENDING_PAYMENT → "Pending payment", ASL → "ASL": the console's words for the service's values. */
export { formatEnum as statusLabel } from '../shared/format';
