import { useQuery } from 'urql';
import { useAction } from '../../shared/action';
import { Form } from '../../shared/form';
import { formatDateTime, formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { AccountListQuery, AccountStatus } from '../../shared/gql/graphql';
import { Count, StatusFilter } from '../queue-filters';
import { Pending } from '../../shared/layout';
import { Pager } from '../../shared/pager';
import { navigateToFilters, useLocation } from '../../shared/router';
import { useMe } from '../staff-context';

const AccountList = graphql(`
  query AccountList($status: AccountStatus, $page: Int, $perPage: Int) {
    accounts(status: $status, page: $page, perPage: $perPage) {
      items {
        id
        name
        email
        status
        createdAt
        approvedAt
        apiKeyLast4
        apiKeyIssuedAt
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
type Account = AccountListQuery['accounts']['items'][number];

/**
 * Client accounts by status. Admins approve a pending account (its first key goes out by e-mail), suspend an approved
 * one, and issue or revoke its API key; the desk reads the list (D28).
 */
export function AccountListPage() {
  const location = useLocation();
  const { query } = location;
  const admin = useMe().role === 'ADMIN';
  const [{ data, fetching, error }] = useQuery({
    query: AccountList,
    variables: {
      status: (query.get('status') as AccountStatus | null) ?? undefined,
      page: Number(query.get('page') ?? '1') || 1,
      perPage: 25,
    },
  });
  const accounts = data?.accounts;
  return (
    <>
      <h1>Accounts</h1>
      <Form
        submitLabel="Filter"
        className="form inline"
        label="Filter accounts"
        onSubmit={(form) => navigateToFilters(location.path, form, ['status'])}
      >
        <StatusFilter location={location} statuses={STATUSES} />
      </Form>
      <Pending fetching={fetching && !accounts} error={error} />
      {accounts && (
        <>
          <Count total={accounts.pageInfo.total} one="account" many="accounts" />
          <ul className="cards-list">
            {accounts.items.map((account) => (
              <AccountCard key={account.id} account={account} admin={admin} />
            ))}
          </ul>
          <Pager location={location} page={accounts.pageInfo.page} lastPage={accounts.pageInfo.lastPage} />
        </>
      )}
    </>
  );
}

function AccountCard({ account, admin }: { account: Account; admin: boolean }) {
  const approve = useAction(Approve, 'Approved; the first key was e-mailed to the account.');
  const suspend = useAction(Suspend, 'Suspended; its key now answers 403.');
  const regenerate = useAction(Regenerate, 'A new key was e-mailed; the old one stopped.');
  const revoke = useAction(Revoke, 'The key was revoked.');
  const id = account.id;
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
    </li>
  );
}
