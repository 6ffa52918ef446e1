import { ScreenOutcome, useAction, useScreenQuery } from '../../shared/action';
import { useState } from 'react';
import { FilteredList, pageOf, statusOf, SearchFilter, StatusFilter } from '../../shared/filtered-list';
import { Form } from '../../shared/form';
import { formatDateTime, formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { AccountStatus } from '../../shared/gql/graphql';
import { useLocation } from '../../shared/router';
import { useMe } from '../staff-context';
import { AccountDetails, type Account } from './account-details';

const AccountList = graphql(`
  query AccountList($status: AccountStatus, $search: String, $page: Int, $perPage: Int) {
    accounts(status: $status, search: $search, page: $page, perPage: $perPage) {
      items {
        id
        name
        email
        status
        createdAt
        approvedAt
        apiKeyLast4
        apiKeyIssuedAt
        billingTerms
        creditLimitCents
        purchaseOrderRequired
        retentionDays
      }
      pageInfo {
        page
        lastPage
        total
      }
    }
  }
`);
const Approve = graphql(`
  mutation ApproveAccount($id: ID!) {
    approveAccount(id: $id) {
      id
      status
      approvedAt
      apiKeyLast4
    }
  }
`);
const Suspend = graphql(`
  mutation SuspendAccount($id: ID!) {
    suspendAccount(id: $id) {
      id
      status
    }
  }
`);
const Regenerate = graphql(`
  mutation RegenerateApiKey($id: ID!) {
    regenerateApiKey(id: $id) {
      id
      apiKeyLast4
      apiKeyIssuedAt
    }
  }
`);
const Revoke = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
      apiKeyLast4
    }
  }
`);

const STATUSES: AccountStatus[] = ['PENDING', 'APPROVED', 'SUSPENDED'];

/**
 * Client accounts by status or a search of their names and e-mails. Admins approve a pending account (its first key
 * goes out by e-mail), suspend an approved one, issue or revoke its API key, and set its terms and retention; the
 * desk reads them, their invoices and their members (D28).
 */
export function AccountListPage() {
  const location = useLocation();
  const { query } = location;
  const admin = useMe().role === 'ADMIN';
  const [{ data, fetching, error }] = useScreenQuery({
    query: AccountList,
    variables: {
      status: statusOf(location, STATUSES),
      search: query.get('search') ?? undefined,
      page: pageOf(location),
      perPage: 25,
    },
  });
  const accounts = data?.accounts;
  return (
    <FilteredList
      heading="Accounts"
      label="Filter accounts"
      location={location}
      fields={['search', 'status']}
      filters={
        <>
          <SearchFilter location={location} hint="Name or e-mail" />
          <StatusFilter location={location} statuses={STATUSES} />
        </>
      }
      fetching={fetching}
      error={error}
      pageInfo={accounts?.pageInfo}
      one="account"
      many="accounts"
      notice={<ScreenOutcome />}
    >
      <ul className="cards-list">
        {accounts?.items.map((account) => (
          <AccountCard key={account.id} account={account} admin={admin} />
        ))}
      </ul>
    </FilteredList>
  );
}

function AccountCard({ account, admin }: { account: Account; admin: boolean }) {
  const approve = useAction(Approve, 'Approved; the first key was e-mailed to the account.');
  const reinstate = useAction(Approve, 'Reinstated; its key works again.');
  const suspend = useAction(Suspend, 'Suspended; its key now answers 403.');
  const regenerate = useAction(Regenerate, 'A new key was e-mailed; the old one stopped.');
  const revoke = useAction(Revoke, 'The key was revoked.');
  const id = account.id;
  // Terms, retention, invoices and members are read only when the desk opens them.
  const [open, setOpen] = useState(false);
  return (
    <li className="card" aria-label={`${account.name} (${account.email})`}>
      <h2>
        {account.name} <span className="badge">{formatEnum(account.status)}</span>
      </h2>
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>{account.email}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(account.createdAt)}</dd>
        <dt>API key</dt>
        <dd>
          {account.apiKeyLast4 ? `…${account.apiKeyLast4}, issued ${formatDateTime(account.apiKeyIssuedAt)}` : 'None'}
        </dd>
      </dl>
      {admin && (
        <div className="form inline">
          {account.status === 'PENDING' && (
            <Form submitLabel="Approve account" onSubmit={() => approve.run({ id })} {...approve.form} />
          )}
          {account.status === 'SUSPENDED' && (
            <Form submitLabel="Reinstate account" onSubmit={() => reinstate.run({ id })} {...reinstate.form} />
          )}
          {account.status === 'APPROVED' && (
            <>
              <Form
                submitLabel="Regenerate key"
                tone="secondary"
                onSubmit={() => regenerate.run({ id })}
                {...regenerate.form}
              />
              {account.apiKeyLast4 && (
                <Form submitLabel="Revoke key" tone="secondary" onSubmit={() => revoke.run({ id })} {...revoke.form} />
              )}
              <Form submitLabel="Suspend" tone="danger" onSubmit={() => suspend.run({ id })} {...suspend.form} />
            </>
          )}
        </div>
      )}
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>Terms, retention and members</summary>
        {open && <AccountDetails account={account} admin={admin} />}
      </details>
    </li>
  );
}
