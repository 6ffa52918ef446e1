import { useAction } from '../../shared/action';
import { FileField, Form, formFile, formText, SelectField, TextField } from '../../shared/form';
import { holdReasonText } from '../../shared/format';
import { instant, ReasonForm, RefundForm, refundDone } from '../desk-forms';
import { graphql } from '../../shared/gql';
import type { OrderDeskView, OrderView } from './order-query';

const CompleteOrder = graphql(`
  mutation CompleteOrder($id: ID!, $certificate: Upload) {
    completeCertifiedOrder(id: $id, certificate: $certificate) {
      id
      status
    }
  }
`);
const RecordNotarization = graphql(`
  mutation RecordNotarization(
    $id: ID!
    $notaryName: String!
    $jurisdiction: String!
    $commissionNumber: String!
    $commissionExpiresOn: String!
    $notarizedAt: DateTime
    $scan: Upload
  ) {
    recordNotarization(
      id: $id
      notaryName: $notaryName
      jurisdiction: $jurisdiction
      commissionNumber: $commissionNumber
      commissionExpiresOn: $commissionExpiresOn
      notarizedAt: $notarizedAt
      scan: $scan
    ) {
      id
      status
    }
  }
`);
const HoldOrder = graphql(`
  mutation HoldOrder($id: ID!, $reason: String!) {
    holdOrder(id: $id, reason: $reason) {
      id
      status
      holdReason
    }
  }
`);
const ReleaseOrder = graphql(`
  mutation ReleaseOrder($id: ID!) {
    releaseOrder(id: $id) {
      id
      status
      holdReason
    }
  }
`);
const CancelOrder = graphql(`
  mutation CancelOrder($id: ID!, $reason: String!) {
    staffCancelOrder(id: $id, reason: $reason) {
      id
      status
    }
  }
`);
const RefundOrder = graphql(`
  mutation RefundOrder($id: ID!, $amountCents: Int!, $reason: String!) {
    refundOrder(id: $id, amountCents: $amountCents, reason: $reason) {
      id
      status
    }
  }
`);
const AssignOrder = graphql(`
  mutation AssignOrder($id: ID!, $staffUserId: ID) {
    assignOrder(id: $id, staffUserId: $staffUserId) {
      id
      assignee {
        id
        name
      }
    }
  }
`);

/** Completing a certified order issues its certificate (a signed PDF, or the desk's own scan when given). */
export function CompleteOrderForm({ order }: { order: OrderView }) {
  const complete = useAction(CompleteOrder, 'Order completed; the certificate is issued.');
  return (
    <section aria-labelledby="complete-heading">
      <h2 id="complete-heading">Complete</h2>
      <Form
        submitLabel="Complete order"
        onSubmit={(data) => complete.run({ id: order.id, certificate: formFile(data, 'certificate') })}
        {...complete.form}
      >
        <FileField
          name="certificate"
          label="Certificate (optional)"
          hint="Leave empty to issue the signed certificate the service draws."
          accept="application/pdf,.pdf"
        />
      </Form>
    </section>
  );
}

export function NotarizationForm({ order }: { order: OrderView }) {
  const record = useAction(RecordNotarization, 'Notarization recorded.');
  const submit = (data: FormData) =>
    record.run({
      id: order.id,
      notaryName: formText(data, 'notaryName'),
      jurisdiction: formText(data, 'jurisdiction'),
      commissionNumber: formText(data, 'commissionNumber'),
      commissionExpiresOn: formText(data, 'commissionExpiresOn'),
      notarizedAt: instant(formText(data, 'notarizedAt')) || null,
      scan: formFile(data, 'scan'),
    });
  return (
    <section aria-labelledby="notarization-heading">
      <h2 id="notarization-heading">Notarization</h2>
      <Form submitLabel="Record notarization" onSubmit={submit} {...record.form}>
        <TextField name="notaryName" label="Notary" autoComplete="off" />
        <TextField name="jurisdiction" label="Jurisdiction" hint="e.g. State of New York, County of Kings" />
        <TextField name="commissionNumber" label="Commission number" />
        <TextField name="commissionExpiresOn" label="Commission expires on" type="date" />
        <TextField name="notarizedAt" label="Notarized at" type="datetime-local" />
        <FileField
          name="scan"
          label="Scan of the notarized certificate"
          accept="application/pdf,image/png,image/jpeg"
        />
      </Form>
    </section>
  );
}

/**
 * Who the order may be assigned to: nobody, the active staff, and always whoever has it now, deactivated or beyond
 * the first page of staff. Left out, the select fell back to "Nobody" and "Assign" unassigned without anyone choosing
 * it; the service refuses a deactivated assignee, so keeping them selected changes nothing.
 */
function assigneeOptions(order: OrderView, desk: OrderDeskView) {
  const active = desk.staffUsers.items.filter((user) => !user.deactivatedAt);
  const current = order.assignee;
  const others = active.filter((user) => user.id !== current?.id);
  return [
    { value: '', label: 'Nobody' },
    ...[...(current ? [current] : []), ...others].map((user) => ({ value: user.id, label: staffLabel(user) })),
  ];
}

/** "Dana Desk (desk)", or "(deactivated)" for one who no longer works here. */
export const staffLabel = (user: { name: string; role: string; deactivatedAt?: string | null }) =>
  `${user.name} (${user.deactivatedAt ? 'deactivated' : user.role.toLowerCase()})`;

/** Hold (with a reason) or release, cancel, refund an amount, assign: the desk's moves (not a translator's). */
export function DeskActions({ order, desk }: { order: OrderView; desk: OrderDeskView }) {
  const hold = useAction(HoldOrder, 'Order held.');
  const release = useAction(ReleaseOrder, 'Order released.');
  const cancel = useAction(CancelOrder, 'Order cancelled.');
  const refund = useAction(RefundOrder, refundDone(desk.staffOrder?.payment?.provider));
  const assign = useAction(AssignOrder, 'Assignment saved.');
  const finished = order.status === 'COMPLETED' || order.status === 'CANCELLED';
  const currency = desk.staffOrder?.currency ?? '';
  return (
    <section aria-labelledby="desk-heading">
      <h2 id="desk-heading">Desk</h2>
      <div className="action-grid">
        {!finished && (
          <Form
            submitLabel="Assign"
            label="Assign the order"
            onSubmit={(data) => assign.run({ id: order.id, staffUserId: formText(data, 'staffUserId') || null })}
            {...assign.form}
          >
            <SelectField
              name="staffUserId"
              label="Assignee"
              errorName="staffUserId"
              defaultValue={order.assignee?.id ?? ''}
              key={order.assignee?.id ?? ''}
              options={assigneeOptions(order, desk)}
            />
          </Form>
        )}
        {order.status === 'ON_HOLD' ? (
          <Form
            submitLabel="Release"
            label="Release the hold"
            onSubmit={() => release.run({ id: order.id })}
            {...release.form}
          >
            <p>Held: {holdReasonText(order.holdReason, 'desk')}</p>
          </Form>
        ) : (
          !finished && (
            <ReasonForm
              action={hold}
              variables={(reason) => ({ id: order.id, reason })}
              submitLabel="Hold"
              fieldLabel="Reason to hold"
            />
          )
        )}
        <RefundForm
          action={refund}
          currency={currency}
          variables={(amountCents, reason) => ({ id: order.id, amountCents, reason })}
        />
        {!finished && (
          <ReasonForm
            action={cancel}
            variables={(reason) => ({ id: order.id, reason })}
            submitLabel="Cancel order"
            fieldLabel="Reason to cancel"
            hint="The client is e-mailed; a paid order is refunded."
            tone="danger"
          />
        )}
      </div>
    </section>
  );
}
