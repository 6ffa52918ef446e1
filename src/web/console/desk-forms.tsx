import type { Action } from '../shared/action';
import { Form, formText, TextArea, TextField } from '../shared/form';
import { formatDateTime } from '../shared/format';
import { typedCents } from '../shared/typed-numbers';

/** A `datetime-local` value (the person's own time) as an instant; empty when none was given. */
export const instant = (text: string) => (text ? new Date(text).toISOString() : '');

/** A move that needs a reason (hold, cancel): the reason's field is named for the move, for assistive technology. */
export function ReasonForm<V>({
  action,
  variables,
  submitLabel,
  fieldLabel,
  hint,
  tone,
}: {
  action: Action<V>;
  variables: (reason: string) => V;
  submitLabel: string;
  fieldLabel: string;
  hint?: string;
  tone?: 'danger';
}) {
  return (
    <Form
      submitLabel={submitLabel}
      label={fieldLabel}
      tone={tone}
      onSubmit={(data) => action.run(variables(formText(data, 'reason')))}
      {...action.form}
    >
      <TextArea name="reason" label={fieldLabel} hint={hint} />
    </Form>
  );
}

/**
 * What a refund's success says: at the payment provider it is asked and applied when the provider answers (D30); on
 * account it is a credit on the account's invoice (D31).
 */
export const refundDone = (provider: string | undefined): string =>
  provider === 'account'
    ? 'Refund recorded as a credit on the account’s invoice.'
    : 'Refund asked of the payment provider.';

/**
 * "Refund" an amount (D30), typed in the currency's units, with a reason the client is told; `of` names what it is
 * refunded from when a record has more than one payment (a booking's overtime, D32).
 */
export function RefundForm<V>({
  action,
  variables,
  currency,
  of,
}: {
  action: Action<V>;
  variables: (amountCents: number, reason: string) => V;
  currency: string;
  of?: string;
}) {
  return (
    <Form
      submitLabel={of ? `Refund ${of}` : 'Refund'}
      label={of ? `Refund an amount of ${of}` : 'Refund an amount'}
      clearOnDone
      onSubmit={(data) => {
        const amount = typedCents(formText(data, 'amount'));
        if ('refusal' in amount) return action.refuse({ amountCents: amount.refusal });
        return action.run(variables(amount.value ?? 0, formText(data, 'reason')));
      }}
      {...action.form}
    >
      <TextField
        name="amount"
        errorName="amountCents"
        label={`${of ? `Amount of ${of}` : 'Amount'} to refund${currency ? ` (${currency})` : ''}`}
        inputMode="decimal"
      />
      <TextArea name="reason" label={of ? `Reason for refunding ${of}` : 'Reason for the refund'} />
    </Form>
  );
}

export interface Note {
  id: string;
  text: string;
  createdAt: string;
  author: { name: string };
}

/** The staff's own notes on an order or a booking (never shown to the client), and "Add note" for the desk. */
export function NotesSection<V>({
  notes,
  action,
  variables,
}: {
  notes: Note[];
  action?: Action<V>;
  variables: (text: string) => V;
}) {
  return (
    <section aria-labelledby="notes-heading">
      <h2 id="notes-heading">Notes</h2>
      {notes.length === 0 ? (
        <p>No note yet.</p>
      ) : (
        <ul className="entries">
          {notes.map((note) => (
            <li key={note.id}>
              <p className="meta">
                {note.author.name}, {formatDateTime(note.createdAt)}
              </p>
              <p>{note.text}</p>
            </li>
          ))}
        </ul>
      )}
      {action && (
        <Form
          submitLabel="Add note"
          clearOnDone
          onSubmit={(data) => action.run(variables(formText(data, 'text')))}
          {...action.form}
        >
          <TextArea name="text" label="Note" />
        </Form>
      )}
    </section>
  );
}
