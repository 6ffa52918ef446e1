import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../shared/gql';
import { when } from '../format';
import { isAdmin, useMe } from '../member-context';
import { personRefusal } from '../refusal';
import { ConfirmStep } from '../confirm-step';

const DeleteDocuments = graphql(`
  mutation PortalDeleteOrderDocuments($id: ID!) {
    deleteOrderDocuments(id: $id) {
      id
      documentsDeletedAt
    }
  }
`);

/** What the deletion needs to know of its order. */
interface Deletable {
  id: string;
  status: string;
  legalHold: boolean;
  documentsDeletedAt?: string | null;
}

/**
 * An admin deletes a finished order's documents now instead of waiting for the account's retention period
 * (docs/decisions.md D33), asked once more since it cannot be undone. Certificates and invoices are kept.
 */
export function DocumentsDeletion({ order }: { order: Deletable }) {
  const me = useMe();
  const [deleted, remove] = useMutation(DeleteDocuments);
  const [confirming, setConfirming] = useState(false);
  if (!isAdmin(me) || (order.status !== 'COMPLETED' && order.status !== 'CANCELLED')) return null;
  const refusal = personRefusal(deleted.error);
  return (
    <section aria-labelledby="deletion">
      <h2 id="deletion">Delete documents</h2>
      {order.documentsDeletedAt ? (
        <p role="status">
          The documents were deleted {when(order.documentsDeletedAt)}. The certificate, if any, still verifies.
        </p>
      ) : order.legalHold ? (
        <p>This order is on legal hold: its documents are kept until the hold is lifted.</p>
      ) : confirming ? (
        <ConfirmStep
          question="Delete this order's documents?"
          consequence="This cannot be undone: the documents you sent and their translations will no longer download."
          act="Delete documents now"
          keep="Keep them"
          busy={deleted.fetching}
          onAct={() => void remove({ id: order.id }).then(() => setConfirming(false))}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <>
          <p>
            Deletes the documents you sent, the translations and any reference files now, instead of at the end of the
            account&apos;s retention period. The certificate and invoices are kept.
          </p>
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            Delete documents
          </button>
        </>
      )}
      {refusal?.messages.map((message) => (
        <p key={message} role="alert" className="refusal">
          {message}
        </p>
      ))}
    </section>
  );
}
