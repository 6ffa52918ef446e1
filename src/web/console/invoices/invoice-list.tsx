import { ScreenOutcome, useAction, useScreenQuery } from '../../shared/action';
import { localPath, useFreshLinks } from '../../shared/file-preview';
import { CheckFilter, FilteredList, pageOf, statusOf, StatusFilter } from '../../shared/filtered-list';
import { Form, formText, TextField } from '../../shared/form';
import { formatDateTime, formatEnum, formatMoney } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { InvoiceStatus, StaffInvoicesQuery } from '../../shared/gql/graphql';
import { useLocation } from '../../shared/router';
import { typedCents } from '../../shared/typed-numbers';
import { ReasonForm } from '../desk-forms';
import { useMe } from '../staff-context';

const StaffInvoices = graphql(`
  query StaffInvoices($accountId: ID, $status: InvoiceStatus, $overdue: Boolean, $page: Int, $perPage: Int) {
    staffInvoices(accountId: $accountId, status: $status, overdue: $overdue, page: $page, perPage: $perPage) {
      items {
        id
        number
        account {
          id
          name
        }
        status
        periodStart
        issuedAt
        dueAt
        totalCents
        paidCents
        paidAt
        currency
        voidReason
        downloadUrl
      }
      pageInfo {
        page
        lastPage
        total
      }
    }
  }
`);
const RecordPayment = graphql(`
  mutation RecordInvoicePayment($id: ID!, $amountCents: Int!, $method: String!, $reference: String) {
    recordInvoicePayment(id: $id, amountCents: $amountCents, method: $method, reference: $reference) {
      id
      status
      paidCents
      paidAt
    }
  }
`);
const Void = graphql(`
  mutation VoidInvoice($id: ID!, $reason: String!) {
    voidInvoice(id: $id, reason: $reason) {
      id
      status
      voidReason
    }
  }
`);

const STATUSES: InvoiceStatus[] = ['OPEN', 'PAID', 'VOID'];
type Invoice = StaffInvoicesQuery['staffInvoices']['items'][number];
const month = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * Invoices of accounts on terms (D31), newest first: by status, overdue, or of one account (opened from its card,
 * which names it). Each opens as a PDF; admins record a payment received or void one issued in error.
 */
export function InvoiceList() {
  const location = useLocation();
  const { query } = location;
  const admin = useMe().role === 'ADMIN';
  const accountId = query.get('account') ?? undefined;
  const [{ data, fetching, error }, refetch] = useScreenQuery({
    query: StaffInvoices,
    variables: {
      accountId,
      status: statusOf(location, STATUSES),
      overdue: query.has('overdue') || undefined,
      page: pageOf(location),
      perPage: 25,
    },
  });
  const invoices = data?.staffInvoices;
  useFreshLinks(invoices?.items.map((invoice) => invoice.downloadUrl) ?? [], () =>
    refetch({ requestPolicy: 'network-only' }),
  );
  return (
    <FilteredList
      heading={accountId ? accountHeading(invoices?.items) : 'Invoices'}
      label="Filter invoices"
      location={location}
      // The account stays in the address while the other filters change.
      fields={['account', 'status']}
      flags={['overdue']}
      filters={
        <>
          {accountId && <input type="hidden" name="account" value={accountId} />}
          <StatusFilter location={location} statuses={STATUSES} />
          <CheckFilter name="overdue" label="Overdue" location={location} />
        </>
      }
      fetching={fetching}
      error={error}
      pageInfo={invoices?.pageInfo}
      one="invoice"
      many="invoices"
      notice={<ScreenOutcome />}
    >
      <ul className="cards-list">
        {invoices?.items.map((invoice) => (
          <InvoiceCard key={invoice.id} invoice={invoice} admin={admin} />
        ))}
      </ul>
    </FilteredList>
  );
}

/**
 * One account's invoices named by the account the service answers with, never by the address: a link could carry any
 * name. A page with no invoice names no account.
 */
const accountHeading = (items: readonly Invoice[] | undefined) => {
  const name = items?.find((invoice) => invoice.account)?.account?.name;
  return name ? `Invoices of ${name}` : 'Invoices of one account';
};

function InvoiceCard({ invoice, admin }: { invoice: Invoice; admin: boolean }) {
  const pay = useAction(RecordPayment, 'Payment recorded.');
  const voided = useAction(Void, 'Invoice voided; its work is invoiced again at the next close.');
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const overdue = invoice.status === 'OPEN' && new Date(invoice.dueAt).getTime() < Date.now();
  const id = invoice.id;
  return (
    <li className="card" aria-label={`Invoice ${invoice.number}`}>
      <h2>
        {invoice.number} <span className="badge">{formatEnum(invoice.status)}</span>{' '}
        {overdue && <span className="badge bad">Overdue</span>}
      </h2>
      <dl className="facts">
        {invoice.account && (
          <>
            <dt>Account</dt>
            <dd>{invoice.account.name}</dd>
          </>
        )}
        <dt>Month</dt>
        <dd>{month.format(new Date(invoice.periodStart))}</dd>
        <dt>Issued</dt>
        <dd>
          {formatDateTime(invoice.issuedAt)}, due {formatDateTime(invoice.dueAt)}
        </dd>
        <dt>Total</dt>
        <dd>
          {money(invoice.totalCents)}, {money(invoice.paidCents)} paid
          {invoice.paidAt && ` (${formatDateTime(invoice.paidAt)})`}
        </dd>
        {invoice.voidReason && (
          <>
            <dt>Voided because</dt>
            <dd>{invoice.voidReason}</dd>
          </>
        )}
      </dl>
      <p>
        <a href={`${localPath(invoice.downloadUrl)}&disposition=inline`} target="_blank" rel="noopener">
          Open {invoice.number} (PDF)
        </a>
      </p>
      {admin && invoice.status === 'OPEN' && (
        <div className="action-grid">
          <Form
            submitLabel="Record payment"
            label={`Payment against ${invoice.number}`}
            onSubmit={(form) => {
              const amount = typedCents(formText(form, 'amount'));
              if ('refusal' in amount) return pay.refuse({ amountCents: amount.refusal });
              return pay.run({
                id,
                amountCents: amount.value ?? 0,
                method: formText(form, 'method'),
                reference: formText(form, 'reference') || undefined,
              });
            }}
            {...pay.form}
          >
            <TextField
              name="amount"
              errorName="amountCents"
              label={`Amount received (${invoice.currency})`}
              inputMode="decimal"
              defaultValue={((invoice.totalCents - invoice.paidCents) / 100).toFixed(2)}
            />
            <TextField name="method" label="Paid by" hint="Bank transfer, cheque, …" />
            <TextField name="reference" label="Payment reference (optional)" />
          </Form>
          {invoice.paidCents === 0 && (
            <ReasonForm
              action={voided}
              variables={(reason) => ({ id, reason })}
              submitLabel="Void invoice"
              fieldLabel="Reason to void"
              tone="danger"
            />
          )}
        </div>
      )}
    </li>
  );
}
