import { type RefObject, useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { useAction } from '../../shared/action';
import { Form, formText, SelectField, TextField } from '../../shared/form';
import { formatDateTime, formatEnum, formatMoney } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { AccountListQuery, AccountMembersQuery, BillingTerms } from '../../shared/gql/graphql';
import { Pending } from '../../shared/layout';
import { Link } from '../../shared/router';
import { typedCents, typedWhole } from '../../shared/typed-numbers';

const Members = graphql(`
  query AccountMembers($accountId: ID!, $page: Int, $perPage: Int) {
    accountMembers(accountId: $accountId, page: $page, perPage: $perPage) {
      items {
        id
        name
        email
        role
        status
        lastSignInAt
      }
      pageInfo {
        total
      }
    }
  }
`);
const SetBilling = graphql(`
  mutation SetAccountBilling(
    $accountId: ID!
    $terms: BillingTerms!
    $creditLimitCents: Int!
    $purchaseOrderRequired: Boolean!
  ) {
    setAccountBilling(
      accountId: $accountId
      terms: $terms
      creditLimitCents: $creditLimitCents
      purchaseOrderRequired: $purchaseOrderRequired
    ) {
      id
      billingTerms
      creditLimitCents
      purchaseOrderRequired
    }
  }
`);
const SetRetention = graphql(`
  mutation SetAccountRetention($accountId: ID!, $days: Int) {
    setAccountRetention(accountId: $accountId, days: $days) {
      id
      retentionDays
    }
  }
`);
const CloseInvoices = graphql(`
  mutation CloseInvoices($accountId: ID!) {
    closeInvoices(accountId: $accountId) {
      id
      number
    }
  }
`);

export type Account = AccountListQuery['accounts']['items'][number];
const TERMS: BillingTerms[] = ['CHECKOUT', 'NET_15', 'NET_30'];
/** The credit limit is kept in cents of the service's currency (D31). */
const CURRENCY = 'USD';

/**
 * What the desk reads of an account beyond its card, opened on demand: its terms and retention (admins change
 * them, D31 and D33), its invoices, and its members (D27).
 */
export function AccountDetails({ account, admin }: { account: Account; admin: boolean }) {
  const invoices = `/console/invoices?account=${account.id}`;
  return (
    <div className="details">
      <dl className="facts">
        <dt>Billing</dt>
        <dd>
          {formatEnum(account.billingTerms)}
          {account.billingTerms !== 'CHECKOUT' && `, credit limit ${formatMoney(account.creditLimitCents, CURRENCY)}`}
          {account.purchaseOrderRequired && ', purchase order required'}
        </dd>
        <dt>Documents kept</dt>
        <dd>{account.retentionDays ? `${account.retentionDays} days after the order ends` : 'Kept'}</dd>
      </dl>
      <p>
        <Link href={invoices}>Invoices of {account.name}</Link>
      </p>
      {admin && <AdminForms account={account} />}
      <MemberList accountId={account.id} />
    </div>
  );
}

function AdminForms({ account }: { account: Account }) {
  const billing = useAction(SetBilling, 'Billing terms saved; they apply from the next order.');
  const retention = useAction(SetRetention, 'Retention saved.');
  const close = useAction(CloseInvoices, 'Invoiced now (if there was anything new).');
  const accountId = account.id;
  return (
    <div className="action-grid">
      <Form
        submitLabel="Save billing terms"
        label={`Billing terms of ${account.name}`}
        onSubmit={(form) => {
          const creditLimit = typedCents(formText(form, 'creditLimit'));
          if ('refusal' in creditLimit) return billing.refuse({ creditLimitCents: creditLimit.refusal });
          return billing.run({
            accountId,
            terms: formText(form, 'terms') as BillingTerms,
            creditLimitCents: creditLimit.value ?? 0,
            purchaseOrderRequired: form.has('purchaseOrderRequired'),
          });
        }}
        {...billing.form}
      >
        <SelectField
          name="terms"
          label="Terms"
          defaultValue={account.billingTerms}
          options={TERMS.map((terms) => ({ value: terms, label: formatEnum(terms) }))}
        />
        <TextField
          name="creditLimit"
          errorName="creditLimitCents"
          label={`Credit limit (${CURRENCY})`}
          inputMode="decimal"
          defaultValue={(account.creditLimitCents / 100).toFixed(2)}
        />
        <label className="check">
          <input type="checkbox" name="purchaseOrderRequired" defaultChecked={account.purchaseOrderRequired} /> Purchase
          order required
        </label>
      </Form>
      <Form
        submitLabel="Save retention"
        label={`Retention of ${account.name}`}
        onSubmit={(form) => {
          // Empty keeps the documents (null); anything else must be a whole number of days.
          const days = typedWhole(formText(form, 'days'));
          if ('refusal' in days) return retention.refuse({ days: days.refusal });
          return retention.run({ accountId, days: days.value ?? null });
        }}
        {...retention.form}
      >
        <TextField
          name="days"
          label="Days to keep documents"
          hint="1 to 3650 days after an order ends; empty keeps them."
          inputMode="numeric"
          defaultValue={account.retentionDays?.toString() ?? ''}
        />
      </Form>
      {account.billingTerms !== 'CHECKOUT' && (
        <Form
          submitLabel="Close invoice now"
          label={`Invoice ${account.name} now`}
          tone="secondary"
          onSubmit={() => close.run({ accountId })}
          {...close.form}
        >
          <p className="hint">
            Invoices the work on account not invoiced yet, without waiting for the month&apos;s end.
          </p>
        </Form>
      )}
    </div>
  );
}

/** Members are read a page at a time, however many an account has; "Show more members" adds the next page. */
const MEMBERS_PER_PAGE = 25;

function MemberList({ accountId }: { accountId: string }) {
  const [pages, setPages] = useState(1);
  const [{ data, fetching, error }] = useQuery({
    query: Members,
    variables: { accountId, page: 1, perPage: MEMBERS_PER_PAGE },
  });
  const first = data?.accountMembers;
  const total = first?.pageInfo.total ?? 0;
  const shown = Math.min(pages * MEMBERS_PER_PAGE, total);
  return (
    <section aria-label="Members">
      <h3>Members</h3>
      <Pending fetching={fetching && !first} error={error} />
      {first &&
        (first.items.length === 0 ? (
          <p>No member yet: the account works by its API key.</p>
        ) : (
          <>
            <ul className="entries">
              <MemberItems members={first.items} />
              {Array.from({ length: pages - 1 }, (_, i) => (
                <MemberPage key={i + 2} accountId={accountId} page={i + 2} />
              ))}
            </ul>
            <p>
              {shown < total ? `Showing ${shown} of ${total} members.` : `${total} member${total === 1 ? '' : 's'}.`}
            </p>
            {shown < total && (
              <button type="button" onClick={() => setPages(pages + 1)}>
                Show more members
              </button>
            )}
          </>
        ))}
    </section>
  );
}

/**
 * A further page of the members, its entries added to the list above it. Its first entry takes the focus as it
 * appears, so a keyboard user reads on from there (the "Show more members" button may be gone by then).
 */
function MemberPage({ accountId, page }: { accountId: string; page: number }) {
  const [{ data, fetching, error }] = useQuery({
    query: Members,
    variables: { accountId, page, perPage: MEMBERS_PER_PAGE },
  });
  const first = useRef<HTMLLIElement>(null);
  const loaded = Boolean(data);
  useEffect(() => {
    if (loaded) first.current?.focus();
  }, [loaded]);
  if (!data)
    return (
      <li>
        <Pending fetching={fetching} error={error} />
      </li>
    );
  return <MemberItems members={data.accountMembers.items} first={first} />;
}

type Member = AccountMembersQuery['accountMembers']['items'][number];

function MemberItems({ members, first }: { members: Member[]; first?: RefObject<HTMLLIElement> }) {
  return (
    <>
      {members.map((member, i) => (
        <li key={member.id} ref={i === 0 ? first : undefined} tabIndex={i === 0 && first ? -1 : undefined}>
          {member.name} ({member.email}), {formatEnum(member.role)}
          {member.status === 'INVITED'
            ? ', invited'
            : member.lastSignInAt
              ? `, last signed in ${formatDateTime(member.lastSignInAt)}`
              : ', never signed in'}
        </li>
      ))}
    </>
  );
}
