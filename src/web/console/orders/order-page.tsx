import { ScreenOutcome, useScreenQuery } from '../../shared/action';
import { useFreshLinks } from '../../shared/file-preview';
import { formatDateTime, formatEnum, formatMoney, holdReasonText } from '../../shared/format';
import { Pending } from '../../shared/layout';
import { BackToList } from '../../shared/list-return';
import { AuditTrail } from '../audit-trail';
import { useMe } from '../staff-context';
import { CompleteOrderForm, DeskActions, NotarizationForm, staffLabel } from './order-actions';
import { OrderMessages, OrderNotes } from './order-conversation';
import { OrderFiles } from './order-files';
import { StaffOrder, StaffOrderDesk, type OrderDeskView, type OrderView } from './order-query';

/**
 * urql reads a page again when a move answers a type the page holds: a first note or message finds no note or
 * message in the page (its lists are empty), so the page names those types itself, and shows them without a reload.
 */
const ORDER_CONTEXT = { additionalTypenames: ['OrderNote', 'OrderMessage'] };

/**
 * One order, everything a desk person does with it on one screen: its facts, its documents side by side, the
 * work (approve, attach, notarize, complete), the desk's moves, notes, the conversation with the client and the
 * audit trail. A translator sees the work only (no money, no account, no desk moves: D28).
 */
export function OrderPage({ number }: { number: string }) {
  const me = useMe();
  const desk = me.role !== 'TRANSLATOR';
  const [{ data, fetching, error }, refetch] = useScreenQuery({
    query: StaffOrder,
    variables: { number },
    context: ORDER_CONTEXT,
  });
  const order = data?.staffOrder;
  useFreshLinks(order?.files.map((file) => file.downloadUrl) ?? [], () => refetch({ requestPolicy: 'network-only' }));
  const [deskAnswer] = useScreenQuery({
    query: StaffOrderDesk,
    variables: { number, orderId: order?.id ?? '' },
    pause: !desk || !order,
    context: ORDER_CONTEXT,
  });
  if (!order) {
    return (
      <>
        <BackToList path="/console/orders" label="Back to orders" />
        {fetching || error ? <Pending fetching={fetching} error={error} /> : <h1>No order {number}</h1>}
      </>
    );
  }
  const open = order.status === 'PROCESSING' || order.status === 'IN_REVIEW';
  const certified = order.serviceType === 'CERTIFIED';
  // A notarization is recorded by the desk (who reads the add-ons) for an order that asked for one, while its
  // translation is reviewed: the service's rule.
  const notarizable =
    Boolean(deskAnswer.data?.staffOrder?.addons.some((line) => line.code === 'notarization')) &&
    (order.status === 'IN_REVIEW' || order.status === 'ON_HOLD');
  return (
    <>
      <BackToList path="/console/orders" label="Back to orders" />
      <h1>
        Order {order.number} <span className="badge">{formatEnum(order.status)}</span>
      </h1>
      <ScreenOutcome />
      <OrderFacts order={order} desk={deskAnswer.data} />
      <OrderFiles order={order} open={open} />
      {certified && open && <CompleteOrderForm order={order} />}
      {notarizable && <NotarizationForm order={order} />}
      {desk && deskAnswer.data && <DeskActions order={order} desk={deskAnswer.data} />}
      <OrderNotes order={order} canAdd={desk} />
      <OrderMessages order={order} />
      {desk && deskAnswer.data && <AuditTrail entries={deskAnswer.data.auditLog.items} />}
    </>
  );
}

function OrderFacts({ order, desk }: { order: OrderView; desk?: OrderDeskView }) {
  const deskOrder = desk?.staffOrder;
  const payment = deskOrder?.payment;
  return (
    <dl className="facts">
      {deskOrder?.account && (
        <>
          <dt>Account</dt>
          <dd>
            {deskOrder.account.name} ({deskOrder.account.email})
          </dd>
        </>
      )}
      <dt>Service</dt>
      <dd>
        {formatEnum(order.serviceType)}, {order.sourceLanguage} → {order.targetLanguage}, {order.unitCount}{' '}
        {order.unitType.toLowerCase()}(s)
        {order.scannedPages ? `, ${order.scannedPages} scanned page(s)` : ''}
      </dd>
      <dt>Reference</dt>
      <dd>{order.reference ?? '—'}</dd>
      <dt>Due</dt>
      <dd>{formatDateTime(order.dueAt)}</dd>
      <dt>Assignee</dt>
      <dd>{order.assignee ? staffLabel(order.assignee) : 'Nobody'}</dd>
      {order.holdReason && (
        <>
          <dt>Held because</dt>
          <dd>{holdReasonText(order.holdReason, 'desk')}</dd>
        </>
      )}
      {order.instructions && (
        <>
          <dt>Instructions</dt>
          <dd>{order.instructions}</dd>
        </>
      )}
      {deskOrder && (
        <>
          <dt>Total</dt>
          <dd>
            {formatMoney(deskOrder.totalCents, deskOrder.currency)}
            {payment?.paidAt ? `, paid ${formatDateTime(payment.paidAt)}` : ', not paid'}
            {payment && payment.refundedCents > 0
              ? `, ${formatMoney(payment.refundedCents, deskOrder.currency)} refunded`
              : ''}
            {payment?.refundPendingCents
              ? `, ${formatMoney(payment.refundPendingCents, deskOrder.currency)} refund pending`
              : ''}
          </dd>
        </>
      )}
      {payment?.refundRefusal && (
        <>
          <dt>Refund refused</dt>
          <dd>{payment.refundRefusal}</dd>
        </>
      )}
      {order.notarization && (
        <>
          <dt>Notarized</dt>
          <dd>
            {order.notarization.notaryName}, {order.notarization.jurisdiction},{' '}
            {formatDateTime(order.notarization.notarizedAt)}
          </dd>
        </>
      )}
      {order.certificate && (
        <>
          <dt>Certificate</dt>
          <dd>
            {order.certificate.code}, issued {formatDateTime(order.certificate.issuedAt)} by{' '}
            {order.certificate.translator.name}
            {order.certificate.notarized ? ', notarized' : ''}.{' '}
            <a href={order.certificate.verifyUrl}>Verification page</a>
          </dd>
        </>
      )}
    </dl>
  );
}
