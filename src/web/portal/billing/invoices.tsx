import { useEffect } from 'react';
import { useQuery } from 'urql';
import { CardTable, type Column } from '../../shared/filtered-list';
import { graphql } from '../../shared/gql';
import type { PortalInvoicesQuery } from '../../shared/gql/graphql';
import { Pending } from '../../shared/layout';
import { Pager } from '../../shared/pager';
import { useLocation } from '../../shared/router';
import { money, statusLabel, when } from '../format';

const PortalInvoices = graphql(`
  query PortalInvoices($page: Int) {
    invoices(page: $page, perPage: 15) {
      items {
        id
        number
        status
        issuedAt
        dueAt
        totalCents
        paidCents
        currency
        downloadUrl
      }
      pageInfo {
        page
        lastPage
      }
    }
  }
`);

const COLUMNS: Column<PortalInvoicesQuery['invoices']['items'][number]>[] = [
  {
    label: 'Invoice',
    cell: (invoice) => (
      <a href={invoice.downloadUrl} aria-label={`Download ${invoice.number} (PDF)`}>
        {invoice.number} (PDF)
      </a>
    ),
  },
  { label: 'Status', cell: (invoice) => <span className="badge">{invoiceStatus(invoice)}</span> },
  { label: 'Issued', cell: (invoice) => when(invoice.issuedAt) },
  { label: 'Due', cell: (invoice) => when(invoice.dueAt) },
  { label: 'Total', cell: (invoice) => money(invoice.totalCents, invoice.currency) },
  { label: 'Paid', cell: (invoice) => money(invoice.paidCents, invoice.currency) },
];

/** A PDF's link is signed for 5 minutes (docs/decisions.md D31): the list asks for fresh ones well before that. */
const RELINK_MS = 2 * 60_000;

/** A terms account's monthly invoices, newest first, each with its PDF (docs/decisions.md D31, D35). */
export function Invoices() {
  const location = useLocation();
  const page = Math.max(1, Number(location.query.get('page')) || 1);
  const [{ data, fetching, error }, refresh] = useQuery({ query: PortalInvoices, variables: { page } });
  useEffect(() => {
    const timer = setInterval(() => document.hidden || refresh({ requestPolicy: 'network-only' }), RELINK_MS);
    return () => clearInterval(timer);
  }, [refresh]);
  const invoices = data?.invoices;
  return (
    <>
      <h1>Invoices</h1>
      <p>Orders placed on account are invoiced at the start of each month, for the month before.</p>
      <Pending fetching={fetching && !data} error={error} />
      {invoices && invoices.items.length === 0 && <p>No invoices yet.</p>}
      {invoices && invoices.items.length > 0 && <CardTable items={invoices.items} columns={COLUMNS} label="Invoices" />}
      {invoices && <Pager location={location} page={page} lastPage={invoices.pageInfo.lastPage} />}
    </>
  );
}

/** An open invoice past its due date is what stops placing on account: it says so. */
const invoiceStatus = (invoice: { status: string; dueAt: string }) =>
  invoice.status === 'OPEN' && Date.parse(invoice.dueAt) < Date.now() ? 'Overdue' : statusLabel(invoice.status);
