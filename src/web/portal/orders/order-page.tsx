import { useState } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import { Form, formText, TextArea } from '../../shared/form';
import { graphql } from '../../shared/gql';
import type { PortalOrderQuery } from '../../shared/gql/graphql';
import { Pending } from '../../shared/layout';
import { Link } from '../../shared/router';
import { CheckoutOutcome } from '../checkout-outcome';
import { CountedText } from '../counted-text';
import { DocumentsDeletion } from './documents-deletion';
import { holdReasonText } from '../../shared/format';
import { money, statusLabel, when } from '../format';
import { mayAct, useMe } from '../member-context';
import { useRefreshOnChange } from '../poll';
import { personRefusal } from '../refusal';

const PortalOrder = graphql(`
  query PortalOrder($id: ID!) {
    order(id: $id) {
      id
      number
      status
      reference
      purchaseOrder
      instructions
      shippingAddress {
        name
        line1
        line2
        city
        postalCode
        country
      }
      serviceType
      sourceLanguage
      targetLanguage
      totalCents
      currency
      createdAt
      dueAt
      completedAt
      cancelledAt
      holdReason
      legalHold
      documentsDeletedAt
      payment {
        provider
        approvalUrl
        paidAt
      }
      shipment {
        carrier
        trackingNumber
        shippedAt
      }
      files {
        id
        name
        type
        downloadUrl
      }
      certificate {
        code
        verifyUrl
      }
      revisions {
        id
        number
        status
      }
      revisionWindowClosesAt
      messages(perPage: 50) {
        items {
          id
          text
          createdAt
          author {
            kind
            name
          }
        }
      }
    }
  }
`);

/** What moves when the order's page would: its last change and the size of its conversation (a few units, D24). */
const PortalOrderMark = graphql(`
  query PortalOrderMark($id: ID!) {
    order(id: $id) {
      id
      updatedAt
      messages(perPage: 1) {
        pageInfo {
          total
        }
      }
    }
  }
`);

const PostMessage = graphql(`
  mutation PostOrderMessage($orderId: ID!, $text: String!) {
    postOrderMessage(orderId: $orderId, text: $text) {
      id
    }
  }
`);

const RequestRevision = graphql(`
  mutation RequestRevision($orderId: ID!, $reason: String!) {
    requestRevision(orderId: $orderId, reason: $reason) {
      id
      number
    }
  }
`);

type Order = NonNullable<PortalOrderQuery['order']>;

/** One order (docs/decisions.md D35): what happened so far, the conversation with the desk, and its documents. */
export function OrderPage({ id }: { id: string }) {
  const [{ data, fetching, error }, refresh] = useQuery({ query: PortalOrder, variables: { id } });
  const client = useClient();
  // Its status, links and messages kept current: read again when they moved, and before its links expire.
  useRefreshOnChange(
    async () => {
      const order = (await client.query(PortalOrderMark, { id }, { requestPolicy: 'network-only' }).toPromise()).data
        ?.order;
      return order ? `${order.updatedAt} ${order.messages.pageInfo.total}` : undefined;
    },
    () => refresh({ requestPolicy: 'network-only' }),
  );
  const order = data?.order;
  if (!order) return <Pending fetching={fetching} error={error} />;
  return (
    <>
      <h1>Order {order.number}</h1>
      <CheckoutOutcome />
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span className="badge">{statusLabel(order.status)}</span>
          {order.holdReason ? `: ${holdReasonText(order.holdReason, 'client')}` : ''}
        </dd>
        <dt>Translation</dt>
        <dd>
          {order.sourceLanguage} → {order.targetLanguage}, {order.serviceType.toLowerCase()}
        </dd>
        <dt>Reference</dt>
        <dd>{order.reference ?? '—'}</dd>
        {order.instructions && (
          <div className="fact">
            <dt>Instructions</dt>
            <dd className="written">{order.instructions}</dd>
          </div>
        )}
        {order.purchaseOrder && (
          <div className="fact">
            <dt>Purchase order</dt>
            <dd>{order.purchaseOrder}</dd>
          </div>
        )}
        {order.shippingAddress && (
          <div className="fact">
            <dt>Hard copies go to</dt>
            <dd>
              {[
                order.shippingAddress.name,
                order.shippingAddress.line1,
                order.shippingAddress.line2,
                `${order.shippingAddress.postalCode} ${order.shippingAddress.city}`,
                order.shippingAddress.country,
              ]
                .filter(Boolean)
                .join(', ')}
            </dd>
          </div>
        )}
        <dt>Total</dt>
        <dd>{money(order.totalCents, order.currency)}</dd>
      </dl>
      <Payment order={order} />
      <Timeline order={order} />
      <Documents order={order} />
      <Messages order={order} onSent={() => refresh({ requestPolicy: 'network-only' })} />
      <Revision order={order} />
      <DocumentsDeletion order={order} />
    </>
  );
}

function Payment({ order }: { order: Order }) {
  const me = useMe();
  if (order.status !== 'PENDING_PAYMENT' || !order.payment.approvalUrl || !mayAct(me)) return null;
  return (
    <p>
      <a className="button" href={order.payment.approvalUrl}>
        Pay
      </a>
    </p>
  );
}

function Timeline({ order }: { order: Order }) {
  const events: [string, string | null | undefined][] = [
    ['Placed', order.createdAt],
    // Work on account is placed, not paid: its invoice is paid later (D31).
    [order.payment.provider === 'account' ? 'Placed on account' : 'Paid', order.payment.paidAt],
    ['Due', order.completedAt || order.cancelledAt ? null : order.dueAt],
    ['Completed', order.completedAt],
    [
      order.shipment ? `Hard copies sent by ${order.shipment.carrier}, ${order.shipment.trackingNumber}` : '',
      order.shipment?.shippedAt,
    ],
    ['Cancelled', order.cancelledAt],
  ];
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Timeline</h2>
      <ol className="timeline">
        {events
          .filter(([label, at]) => label && at)
          .map(([label, at]) => (
            <li key={label}>
              <time dateTime={at!}>{when(at)}</time> {label}
            </li>
          ))}
      </ol>
    </section>
  );
}

function Documents({ order }: { order: Order }) {
  const delivered = order.files.filter((file) => file.type !== 'SOURCE' && file.downloadUrl);
  return (
    <section aria-labelledby="documents">
      <h2 id="documents">Documents</h2>
      <ul className="documents">
        {order.files.map((file) => (
          <li key={file.id}>
            {file.name} <span className="hint">({file.type.toLowerCase()})</span>
            {file.type !== 'SOURCE' && file.downloadUrl && (
              <a className="button" href={file.downloadUrl} aria-label={`Download ${file.name}`}>
                Download
              </a>
            )}
          </li>
        ))}
      </ul>
      {order.documentsDeletedAt ? (
        <p>These documents were deleted {when(order.documentsDeletedAt)}: they no longer download.</p>
      ) : (
        delivered.length === 0 && <p>The translation can be downloaded here once the order is completed.</p>
      )}
      {order.certificate && (
        <p>
          Certificate {order.certificate.code}:{' '}
          <a href={order.certificate.verifyUrl} target="_blank" rel="noreferrer">
            open its verification page
          </a>
        </p>
      )}
    </section>
  );
}

function Messages({ order, onSent }: { order: Order; onSent: () => void }) {
  const me = useMe();
  const [sent, send] = useMutation(PostMessage);
  // A new form after each message sent, so the box is empty again.
  const [drafts, nextDraft] = useState(0);
  const post = async (form: FormData) => {
    const answer = await send({ orderId: order.id, text: formText(form, 'text') });
    if (!answer.error) {
      nextDraft((n) => n + 1);
      onSent();
    }
  };
  return (
    <section aria-labelledby="messages">
      <h2 id="messages">Messages with the desk</h2>
      {order.messages.items.length === 0 && <p>No messages yet.</p>}
      <ul className="messages">
        {order.messages.items.map((message) => (
          <li key={message.id} className={message.author.kind === 'STAFF' ? 'staff' : 'client'}>
            <p className="meta">
              {message.author.name} · {when(message.createdAt)}
            </p>
            <p className="written" dir="auto">
              {message.text}
            </p>
          </li>
        ))}
      </ul>
      {mayAct(me) && (
        <Form
          key={drafts}
          submitLabel="Send message"
          onSubmit={post}
          refusal={personRefusal(sent.error, ['text'])}
          busy={sent.fetching}
        >
          {/* No limit of its own: the service's (D30) is the one, its refusal shown beside the box. */}
          <TextArea name="text" label="Message" required />
        </Form>
      )}
    </section>
  );
}

/** A revision still being worked on: neither completed nor cancelled (D30). */
const isOpen = ({ status }: { status: string }) => status !== 'COMPLETED' && status !== 'CANCELLED';

/**
 * An order's revisions, each a link with its status, and the request of another (D30): free until the window of the
 * first delivery closes, one at a time, and only of the latest delivered version, as the service checks too.
 */
function Revision({ order }: { order: Order }) {
  const me = useMe();
  const [asked, ask] = useMutation(RequestRevision);
  const revision = asked.data?.requestRevision;
  const closes = order.revisionWindowClosesAt;
  const open = order.revisions.find(isOpen);
  const replacedBy = order.revisions.findLast((made) => made.status === 'COMPLETED');
  const revisions = order.revisions.length > 0 && (
    <ul>
      {order.revisions.map((made) => (
        <li key={made.id}>
          Revision <Link href={`/portal/orders/${made.id}`}>{made.number}</Link>: {statusLabel(made.status)}
        </li>
      ))}
    </ul>
  );
  const rule = open ? (
    <p>Revision {open.number} is in progress; another can be asked for once it is finished.</p>
  ) : replacedBy ? (
    <p>
      Revision {replacedBy.number} replaces this order: ask for any further revision on{' '}
      <Link href={`/portal/orders/${replacedBy.id}`}>its page</Link>.
    </p>
  ) : null;
  // An order whose documents were deleted (D33) has nothing left to revise.
  const askable =
    order.status === 'COMPLETED' &&
    closes !== null &&
    !open &&
    !replacedBy &&
    Date.now() < Date.parse(closes) &&
    mayAct(me) &&
    !order.documentsDeletedAt;
  // A request refused (someone else asked first, the window closed meanwhile) keeps its form even once the page,
  // read again, no longer offers one: the reason typed stays, with the refusal beside it.
  const drawn = askable || asked.error !== undefined;
  if (!drawn && !revisions) return null;
  return (
    <section aria-labelledby="revision">
      <h2 id="revision">Revisions</h2>
      {revisions}
      {!revision && !askable && rule}
      {revision ? (
        <p role="status" className="done">
          Revision <Link href={`/portal/orders/${revision.id}`}>{revision.number}</Link> is open.
        </p>
      ) : (
        drawn && (
          <Form
            submitLabel="Request revision"
            onSubmit={(form) => ask({ orderId: order.id, reason: formText(form, 'reason') })}
            refusal={personRefusal(asked.error, ['reason'])}
            busy={asked.fetching}
          >
            <CountedText
              name="reason"
              label="What should be revised"
              hint={`Free until ${when(closes)}.`}
              limit={2000}
              multiline
            />
          </Form>
        )
      )}
    </section>
  );
}
