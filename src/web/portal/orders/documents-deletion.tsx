import { useMutation } from 'urql';
import { graphql } from '../../shared/gql';
import { when } from '../format';
import { isAdmin, useMe } from '../member-context';
import { personRefusal } from '../refusal';
import { ActDone, ConfirmStep, useConfirmation } from '../confirm-step';

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
  const confirmation = useConfirmation();
  if (!isAdmin(me) || (order.status !== 'COMPLETED' && order.status !== 'CANCELLED')) return null;
  // The answer says when, before the order is read again: no "Delete documents" drawn again meanwhile.
  const deletedAt = deleted.data?.deleteOrderDocuments.documentsDeletedAt ?? order.documentsDeletedAt;
  return (
    <section aria-labelledby="deletion">
      <h2 id="deletion">Delete documents</h2>
      {deletedAt ? (
        <Deleted at={deletedAt} now={deleted.data !== undefined} />
      ) : order.legalHold ? (
        <p>This order is on legal hold: its documents are kept until the hold is lifted.</p>
      ) : confirmation.shown ? (
        <ConfirmStep
          question="Delete this order's documents?"
          consequence="This cannot be undone: the documents you sent and their translations will no longer download."
          act="Delete documents now"
          keep="Keep them"
          busy={deleted.fetching}
          refusal={personRefusal(deleted.error)}
          confirmation={confirmation}
          onAct={() => remove({ id: order.id })}
        />
      ) : (
        <>
          <p>
            Deletes the documents you sent, the translations and any reference files now, instead of at the end of the
            account&apos;s retention period. The certificate and invoices are kept.
          </p>
          <button ref={confirmation.asker} type="button" className="secondary" onClick={confirmation.ask}>
            Delete documents
          </button>
        </>
      )}
    </section>
  );
}

/** When the documents went; deleted from this page just now, the line takes the focus its button had. */
function Deleted({ at, now }: { at: string; now: boolean }) {
  const said = `The documents were deleted ${when(at)}. The certificate, if any, still verifies.`;
  return now ? <ActDone>{said}</ActDone> : <p role="status">{said}</p>;
}
