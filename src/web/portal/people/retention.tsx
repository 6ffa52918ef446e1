import { useState } from 'react';
import { graphql } from '../../shared/gql';
import { useAction } from '../../shared/action';
import { Form, formText, TextField } from '../../shared/form';
import { typedWhole } from '../../shared/typed-numbers';
import { useMe } from '../member-context';

const SetRetention = graphql(`
  mutation PortalSetRetention($days: Int) {
    setRetention(days: $days) {
      id
      retentionDays
    }
  }
`);

/** What the account's setting means, in words (docs/decisions.md D33). */
export const retentionMeaning = (days: number | null | undefined) =>
  days == null
    ? 'The documents of finished orders are kept until an admin deletes them from the order’s page.'
    : `The documents of an order are deleted ${days} day${days === 1 ? '' : 's'} after it is completed or cancelled.`;

/**
 * An admin's retention setting (docs/decisions.md D33): how long an order's documents are kept once it is finished,
 * or until the firm deletes them itself. The change applies at once, to finished orders too, so the page says so.
 */
export function Retention() {
  const me = useMe();
  const saving = useAction(SetRetention, 'Saved.');
  const [days, setDays] = useState(me.retentionDays);
  const [keep, setKeep] = useState(days == null);
  // An empty field is sent as 0, so the service's own message about the range is shown beside it; what is not a
  // whole number is said in the page (sent, `1.5` would be answered in GraphQL's own words).
  const save = async (form: FormData) => {
    const typed = keep ? { value: null } : typedWhole(formText(form, 'days'));
    if ('refusal' in typed) return saving.refuse({ days: typed.refusal });
    const answer = await saving.run({ days: keep ? null : (typed.value ?? 0) });
    if (answer) setDays(answer.setRetention.retentionDays);
  };
  return (
    <section aria-labelledby="retention">
      <h2 id="retention">Keeping documents</h2>
      <p role="status">{retentionMeaning(days)}</p>
      <p>
        This covers the documents you sent, the translations and the files given with a revision request. Certificates
        of accuracy and invoices are kept: a certificate still verifies a copy you kept. An order on legal hold keeps
        its documents. A change applies at once, also to orders finished earlier.
      </p>
      <Form submitLabel="Save retention" label="Keeping documents" onSubmit={save} {...saving.form}>
        <fieldset>
          <legend>Keep an order&apos;s documents</legend>
          <label className="choice">
            <input type="radio" name="keep" checked={!keep} onChange={() => setKeep(false)} />
            For a number of days after the order is finished
          </label>
          <label className="choice">
            <input type="radio" name="keep" checked={keep} onChange={() => setKeep(true)} />
            Until we delete them
          </label>
        </fieldset>
        {!keep && (
          <TextField
            name="days"
            label="Days to keep documents"
            hint="1 to 3650."
            type="number"
            step={1}
            min={1}
            max={3650}
            defaultValue={days ?? 90}
          />
        )}
      </Form>
    </section>
  );
}
