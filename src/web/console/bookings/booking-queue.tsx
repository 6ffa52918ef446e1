import { useQuery } from 'urql';
import { TextField } from '../../shared/form';
import { formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { InterpretationBookingStatus, StaffBookingQueueQuery } from '../../shared/gql/graphql';
import {
  CardTable,
  FilteredList,
  type Column,
  pageOf,
  statusOf,
  SearchFilter,
  StatusFilter,
} from '../../shared/filtered-list';
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
        scheduledAtText
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

type QueuedBooking = StaffBookingQueueQuery['staffInterpretationBookings']['items'][number];
const COLUMNS: Column<QueuedBooking>[] = [
  { label: 'Number', cell: (b) => <Link href={`/console/bookings/${b.number}`}>{b.number}</Link> },
  { label: 'Status', cell: (b) => <span className="badge">{formatEnum(b.status)}</span> },
  { label: 'When', cell: (b) => `${b.scheduledAtText}, ${b.durationHours} h` },
  { label: 'Account', cell: (b) => b.account?.name },
  { label: 'Languages', cell: (b) => `${b.sourceLanguage} → ${b.targetLanguage} (${formatEnum(b.mode)})` },
  { label: 'Interpreter', cell: (b) => b.interpreterName ?? '—' },
];

/**
 * A day typed in a date field as the instant it starts, in the person's own time zone. A day that is none (an address
 * edited by hand, `from=garbage`) filters nothing, where it threw and left the screen blank.
 */
const dayStart = (day: string | null, plusDays = 0) => {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00`);
  if (Number.isNaN(date.getTime())) return undefined;
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
      status: statusOf(location, STATUSES),
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
      <CardTable items={bookings?.items ?? []} columns={COLUMNS} />
    </FilteredList>
  );
}

function DayFilter({ name, label, location }: { name: string; label: string; location: Location }) {
  const value = location.query.get(name) ?? '';
  return <TextField name={name} label={label} type="date" defaultValue={value} key={`${name}-${value}`} />;
}
