import { useEffect } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../shared/gql';
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
      {invoices && invoices.items.length > 0 && (
        <table className="cards" aria-label="Invoices">
          <thead>
            <tr>
              <th scope="col">Invoice</th>
              <th scope="col">Status</th>
              <th scope="col">Issued</th>
              <th scope="col">Due</th>
              <th scope="col">Total</th>
              <th scope="col">Paid</th>
            </tr>
          </thead>
          <tbody>
            {invoices.items.map((invoice) => (
              <tr key={invoice.id}>
                <td data-label="Invoice">
                  <a href={invoice.downloadUrl} aria-label={`Download ${invoice.number} (PDF)`}>
                    {invoice.number} (PDF)
                  </a>
                </td>
                <td data-label="Status">
                  <span className="badge">{invoiceStatus(invoice)}</span>
                </td>
                <td data-label="Issued">{when(invoice.issuedAt)}</td>
                <td data-label="Due">{when(invoice.dueAt)}</td>
                <td data-label="Total">{money(invoice.totalCents, invoice.currency)}</td>
                <td data-label="Paid">{money(invoice.paidCents, invoice.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {invoices && <Pager location={location} page={page} lastPage={invoices.pageInfo.lastPage} />}
    </>
  );
}

/** An open invoice past its due date is what stops placing on account: it says so. */
const invoiceStatus = (invoice: { status: string; dueAt: string }) =>
  invoice.status === 'OPEN' && Date.parse(invoice.dueAt) < Date.now() ? 'Overdue' : statusLabel(invoice.status);
