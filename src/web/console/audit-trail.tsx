import { formatDateTime, formatEnum } from '../shared/format';

export interface AuditRow {
  id: string;
  action: string;
  actorLabel: string;
  fromState?: string | null;
  toState?: string | null;
  createdAt: string;
}

/** Who did what to a record and when, newest first, as the audit log keeps it. */
export function AuditTrail({ entries }: { entries: AuditRow[] }) {
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit trail</h2>
      {entries.length === 0 ? (
        <p>Nothing recorded yet.</p>
      ) : (
        <table className="cards">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">By</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td data-label="When">{formatDateTime(entry.createdAt)}</td>
                <td data-label="Action">{entry.action}</td>
                <td data-label="By">{entry.actorLabel}</td>
                <td data-label="Change">
                  {entry.fromState || entry.toState
                    ? `${stateText(entry.fromState)} → ${stateText(entry.toState)}`
                    : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A state as the log keeps it (`in_review`) in words, as the rest of the page writes it ("In review"). */
const stateText = (state?: string | null) => (state ? formatEnum(state.toUpperCase()) : '—');
