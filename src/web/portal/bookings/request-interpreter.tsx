import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Form, formText, SelectField, TextField } from '../../shared/form';
import { graphql } from '../../shared/gql';
import type { InterpretationMode, InterpretationSetting } from '../../shared/gql/graphql';
import { Pending } from '../../shared/layout';
import { fieldRefusal } from '../../shared/refusal';
import { typedHours } from '../../shared/typed-numbers';
import { Link } from '../../shared/router';
import { money, statusLabel } from '../format';
import { LanguagePicker } from '../ordering/language-picker';
import { personRefusal } from '../refusal';

const InterpreterCatalog = graphql(`
  query InterpreterCatalog {
    languages {
      code
      name
    }
    pricing {
      interpretation {
        mode
        unitPriceCents
        currency
        minimumHours
      }
    }
  }
`);

const RequestBooking = graphql(`
  mutation RequestInterpreter($input: CreateInterpretationBookingInput!) {
    createInterpretationBooking(input: $input) {
      id
      number
    }
  }
`);

/** The fields of the form, as the service names them in a refusal. */
const BOOKING_FIELDS = [
  'sourceLanguage',
  'targetLanguage',
  'mode',
  'setting',
  'scheduledAt',
  'durationHours',
  'location',
  'reference',
];

const SETTINGS: InterpretationSetting[] = ['MEETING', 'DEPOSITION', 'COURT', 'ARBITRATION', 'CONFERENCE', 'OTHER'];

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * The moment as the person wrote it, with their zone's offset at that moment ("2027-01-15T10:00:00-05:00"), not in
 * UTC: the service shows the booking's times back in the offset it was written with (D29).
 */
function withOffset(at: Date): string {
  const offset = -at.getTimezoneOffset();
  const size = Math.abs(offset);
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:00`;
  return `${date}T${time}${offset < 0 ? '-' : '+'}${pad(Math.floor(size / 60))}:${pad(size % 60)}`;
}

/**
 * Asking for an interpreter: the time is entered in the person's own time zone and sent with its offset; the desk
 * confirms an interpreter, and then the booking can be paid from its page.
 */
export function RequestInterpreter() {
  const [{ data, fetching, error }] = useQuery({ query: InterpreterCatalog, requestPolicy: 'cache-first' });
  const [requested, request] = useMutation(RequestBooking);
  const [unread, setUnread] = useState<Record<string, string>>();
  if (!data) return <Pending fetching={fetching} error={error} />;
  // The person's own time zone, named, so "10:00" on the form is never read in another.
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const booking = requested.data?.createInterpretationBooking;
  const submit = (form: FormData) => {
    const local = formText(form, 'scheduledAt');
    const at = local ? new Date(local) : undefined;
    // A date the browser could not read goes as it was typed, for the service to refuse beside the field.
    const scheduledAt = at && !Number.isNaN(at.getTime()) ? withOffset(at) : local;
    const durationHours = typedHours(formText(form, 'durationHours'));
    const refusals: Record<string, string> = {};
    if ('refusal' in durationHours) refusals.durationHours = durationHours.refusal;
    // A time the clocks skip (02:30 as they go forward) is moved by the browser: the person is asked, not moved.
    if (scheduledAt !== local && scheduledAt.slice(0, 16) !== local.slice(0, 16))
      refusals.scheduledAt = `This time does not exist in ${zone}: the clocks change then. Choose another time.`;
    setUnread(Object.keys(refusals).length > 0 ? refusals : undefined);
    if (Object.keys(refusals).length > 0 || 'refusal' in durationHours) return undefined;
    return request({
      input: {
        sourceLanguage: formText(form, 'sourceLanguage'),
        targetLanguage: formText(form, 'targetLanguage'),
        mode: formText(form, 'mode') as InterpretationMode,
        setting: formText(form, 'setting') as InterpretationSetting,
        scheduledAt,
        durationHours: durationHours.value ?? 0,
        location: formText(form, 'location') || undefined,
        reference: formText(form, 'reference') || undefined,
        redirectUrl: `${location.origin}/portal/paid`,
      },
    });
  };
  return (
    <>
      <h1>Request an interpreter</h1>
      {booking ? (
        <p role="status" className="done">
          Booking <Link href={`/portal/bookings/${booking.id}`}>{booking.number}</Link> is requested. The desk confirms
          an interpreter; you can pay once it is confirmed.
        </p>
      ) : (
        <Form
          submitLabel="Request interpreter"
          onSubmit={submit}
          refusal={unread ? fieldRefusal(unread) : personRefusal(requested.error, BOOKING_FIELDS)}
          busy={requested.fetching}
        >
          <div className="pair">
            <LanguagePicker name="sourceLanguage" label="Source language" languages={data.languages} />
            <LanguagePicker name="targetLanguage" label="Target language" languages={data.languages} />
          </div>
          <SelectField
            name="mode"
            label="Kind of interpreting"
            options={data.pricing.interpretation.map((rate) => ({
              value: rate.mode,
              label: `${statusLabel(rate.mode)}: ${money(rate.unitPriceCents, rate.currency)} an hour, at least ${rate.minimumHours} h`,
            }))}
          />
          <SelectField
            name="setting"
            label="Setting"
            options={SETTINGS.map((setting) => ({ value: setting, label: statusLabel(setting) }))}
          />
          <TextField name="scheduledAt" label={`Starts (your time, ${zone})`} type="datetime-local" />
          <TextField name="durationHours" label="Hours" type="number" min={0.5} step={0.5} defaultValue={2} />
          <TextField name="location" label="Where (an address, or the video link's details)" />
          <TextField name="reference" label="Your reference" />
        </Form>
      )}
    </>
  );
}
