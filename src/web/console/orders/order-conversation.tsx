import { useAction } from '../../shared/action';
import { Form, formText, TextArea } from '../../shared/form';
import { formatDateTime } from '../../shared/format';
import { graphql } from '../../shared/gql';
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

/** The staff's own notes on the order (never shown to the client). */
export function OrderNotes({ order, canAdd }: { order: OrderView; canAdd: boolean }) {
  const add = useAction(AddNote, 'Note added.');
  return (
    <section aria-labelledby="notes-heading">
      <h2 id="notes-heading">Notes</h2>
      <ul className="entries">
        {(order.notes ?? []).map((note) => (
          <li key={note.id}>
            <p className="meta">
              {note.author.name}, {formatDateTime(note.createdAt)}
            </p>
            <p>{note.text}</p>
          </li>
        ))}
      </ul>
      {(order.notes ?? []).length === 0 && <p>No note yet.</p>}
      {canAdd && (
        <Form
          submitLabel="Add note"
          onSubmit={(data) => add.run({ id: order.id, text: formText(data, 'text') })}
          {...add.form}
        >
          <TextArea name="text" label="Note" />
        </Form>
      )}
    </section>
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
