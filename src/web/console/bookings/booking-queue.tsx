import { useQuery } from 'urql';
import { TextField } from '../../shared/form';
import { formatDateTime, formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { InterpretationBookingStatus } from '../../shared/gql/graphql';
import { FilteredList, pageOf, SearchFilter, StatusFilter } from '../../shared/filtered-list';
import { Link, useLocation, type Location } from '../../shared/router';

const StaffBookingQueue = graphql(`
  query StaffBookingQueue(
    $status: InterpretationBookingStatus
    $from: DateTime
    $to: DateTime
    $search: String
    $page: Int
    $perPage: Int
  ) {
    staffInterpretationBookings(
      status: $status
      from: $from
      to: $to
      search: $search
      page: $page
      perPage: $perPage
    ) {
      items {
        id
        number
        status
        scheduledAt
        durationHours
        mode
        sourceLanguage
        targetLanguage
        interpreterName
        account {
          name
        }
      }
      pageInfo {
        page
        lastPage
        total
      }
    }
  }
`);

const STATUSES: InterpretationBookingStatus[] = [
  'REQUESTED',
  'AWAITING_PAYMENT',
  'CONFIRMED',
  'ON_HOLD',
  'COMPLETED',
  'CANCELLED',
];

/** A day typed in a date field as the instant it starts, in the person's own time zone. */
const dayStart = (day: string | null, plusDays = 0) => {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
};

/** The booking queue by status and date (from one day to another, both included), or a search. */
export function BookingQueue() {
  const location = useLocation();
  const { query } = location;
  const [{ data, fetching, error }] = useQuery({
    query: StaffBookingQueue,
    variables: {
      status: (query.get('status') as InterpretationBookingStatus | null) ?? undefined,
      from: dayStart(query.get('from')),
      to: dayStart(query.get('to'), 1),
      search: query.get('search') ?? undefined,
      page: pageOf(location),
      perPage: 25,
    },
  });
  const bookings = data?.staffInterpretationBookings;
  return (
    <FilteredList
      heading="Bookings"
      label="Filter bookings"
      location={location}
      fields={['search', 'status', 'from', 'to']}
      filters={
        <>
          <SearchFilter location={location} hint="Number, reference or account" />
          <StatusFilter location={location} statuses={STATUSES} />
          <DayFilter name="from" label="From" location={location} />
          <DayFilter name="to" label="To" location={location} />
        </>
      }
      fetching={fetching}
      error={error}
      pageInfo={bookings?.pageInfo}
      one="booking"
      many="bookings"
    >
      <table className="cards">
        <thead>
          <tr>
            <th scope="col">Number</th>
            <th scope="col">Status</th>
            <th scope="col">When</th>
            <th scope="col">Account</th>
            <th scope="col">Languages</th>
            <th scope="col">Interpreter</th>
          </tr>
        </thead>
        <tbody>
          {bookings?.items.map((booking) => (
            <tr key={booking.id}>
              <td data-label="Number">
                <Link href={`/console/bookings/${booking.number}`}>{booking.number}</Link>
              </td>
              <td data-label="Status">
                <span className="badge">{formatEnum(booking.status)}</span>
              </td>
              <td data-label="When">
                {formatDateTime(booking.scheduledAt)}, {booking.durationHours} h
              </td>
              <td data-label="Account">{booking.account?.name}</td>
              <td data-label="Languages">
                {booking.sourceLanguage} → {booking.targetLanguage} ({formatEnum(booking.mode)})
              </td>
              <td data-label="Interpreter">{booking.interpreterName ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </FilteredList>
  );
}

function DayFilter({ name, label, location }: { name: string; label: string; location: Location }) {
  const value = location.query.get(name) ?? '';
  return <TextField name={name} label={label} type="date" defaultValue={value} key={`${name}-${value}`} />;
}
