import { useAction } from '../../shared/action';
import { Form, formText, TextArea } from '../../shared/form';
import { formatDateTime } from '../../shared/format';
import { graphql } from '../../shared/gql';
import { NotesSection } from '../desk-forms';
import type { OrderView } from './order-query';

const AddNote = graphql(`
  mutation AddOrderNote($id: ID!, $text: String!) {
    addOrderNote(id: $id, text: $text) {
      id
      text
      createdAt
      author {
        name
      }
    }
  }
`);
const SendMessage = graphql(`
  mutation PostStaffOrderMessage($orderId: ID!, $text: String!, $waitForClient: Boolean) {
    postStaffOrderMessage(orderId: $orderId, text: $text, waitForClient: $waitForClient) {
      id
      text
      createdAt
      author {
        kind
        name
      }
    }
  }
`);

/** The order's notes; the desk adds them (D28), a translator reads them. */
export function OrderNotes({ order, canAdd }: { order: OrderView; canAdd: boolean }) {
  const add = useAction(AddNote, 'Note added.');
  return (
    <NotesSection
      notes={order.notes ?? []}
      action={canAdd ? add : undefined}
      variables={(text) => ({ id: order.id, text })}
    />
  );
}

/** The conversation with the client, newest first; a message may put the order on hold until the client answers. */
export function OrderMessages({ order }: { order: OrderView }) {
  const send = useAction(SendMessage, 'Message sent; the client is e-mailed.');
  return (
    <section aria-labelledby="messages-heading">
      <h2 id="messages-heading">Messages with the client</h2>
      <Form
        submitLabel="Send message"
        clearOnDone
        onSubmit={(data) =>
          send.run({ orderId: order.id, text: formText(data, 'text'), waitForClient: data.has('waitForClient') })
        }
        {...send.form}
      >
        <TextArea name="text" label="Message to the client" />
        <label className="check">
          <input type="checkbox" name="waitForClient" /> Hold the order until the client answers
        </label>
      </Form>
      <ul className="entries">
        {order.messages.items.map((message) => (
          <li key={message.id}>
            <p className="meta">
              {message.author.name} ({message.author.kind.toLowerCase()}), {formatDateTime(message.createdAt)}
            </p>
            <p>{message.text}</p>
          </li>
        ))}
      </ul>
      {order.messages.items.length === 0 && <p>No message yet.</p>}
    </section>
  );
}
