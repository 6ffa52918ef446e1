import { useQuery } from 'urql';
import { useAction, type Action } from '../../shared/action';
import { Form, formText, SelectField } from '../../shared/form';
import { formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import { Link } from '../../shared/router';
import type { Booking } from './booking-page';

const Qualified = graphql(`
  query QualifiedInterpreters($bookingId: ID!) {
    interpreters(bookingId: $bookingId, perPage: 100) {
      items {
        id
        name
        languages
        qualifications
      }
      pageInfo {
        total
      }
    }
  }
`);
const Confirm = graphql(`
  mutation ConfirmAvailability($id: ID!, $interpreterId: ID!) {
    confirmInterpretationAvailability(id: $id, interpreterId: $interpreterId) {
      id
      status
      interpreterName
    }
  }
`);
const Replace = graphql(`
  mutation ReplaceInterpreter($id: ID!, $interpreterId: ID!) {
    replaceInterpreter(id: $id, interpreterId: $interpreterId) {
      id
      status
      interpreterName
    }
  }
`);

/** "Confirm availability" of a requested booking with an interpreter who qualifies and is free at its time (D32). */
export function ConfirmForm({ booking }: { booking: Booking }) {
  const confirm = useAction(Confirm, 'Availability confirmed; the client is asked to pay.');
  return <InterpreterForm booking={booking} action={confirm} submitLabel="Confirm availability" />;
}

/**
 * "Replace interpreter" on a booking on hold: the way out when its interpreter was deactivated or given the slot
 * meanwhile, which "Release" would refuse (D32); release it once another is chosen.
 */
export function ReplaceInterpreterForm({ booking }: { booking: Booking }) {
  const replace = useAction(Replace, 'Interpreter replaced; release the hold when ready.');
  return <InterpreterForm booking={booking} action={replace} submitLabel="Replace interpreter" />;
}

/**
 * An interpreter chosen among those the service says qualify for the booking and are free at its time (D32); the
 * service checks again under the interpreter's lock, and a refusal names the rule.
 */
function InterpreterForm({
  booking,
  action,
  submitLabel,
}: {
  booking: Booking;
  action: Action<{ id: string; interpreterId: string }>;
  submitLabel: string;
}) {
  const [{ data }] = useQuery({ query: Qualified, variables: { bookingId: booking.id } });
  const found = data?.interpreters;
  if (found && found.items.length === 0)
    return (
      <div className="form">
        <p>No interpreter on record qualifies for this booking and is free at its time.</p>
        <Link href="/console/interpreters">Interpreters</Link>
      </div>
    );
  const options = (found?.items ?? []).map((i) => ({
    value: i.id,
    label: [i.name, i.languages.join(', '), ...i.qualifications.map(formatEnum)].join(' · '),
  }));
  return (
    <Form
      submitLabel={submitLabel}
      onSubmit={(form) => action.run({ id: booking.id, interpreterId: formText(form, 'interpreterId') })}
      {...action.form}
    >
      <SelectField
        name="interpreterId"
        label="Interpreter"
        hint={found ? `${found.pageInfo.total} qualify and are free at that time.` : 'Finding who qualifies…'}
        options={[{ value: '', label: 'Choose an interpreter' }, ...options]}
      />
    </Form>
  );
}
