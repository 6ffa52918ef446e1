/**
 * A moment of a booking as e-mails and pages show it (D29): in the offset the client wrote `scheduled_at` with, and in
 * UTC beside it, `2026-12-01 09:30 UTC-05:00 (2026-12-01 14:30 UTC)`; in a booking written in UTC it shows once.
 */
export function zonedTime(at: Date, offset: number): string {
  const utc = `${minutes(at)} UTC`;
  if (offset === 0) return utc;
  const size = Math.abs(offset);
  const local = minutes(new Date(at.getTime() + offset * 60_000));
  return `${local} UTC${offset < 0 ? '-' : '+'}${pad(Math.floor(size / 60))}:${pad(size % 60)} (${utc})`;
}

/** A booking's start as e-mails and pages show it (D29). */
export const bookingTime = (booking: { scheduledAt: Date; scheduledOffsetMinutes: number }): string =>
  zonedTime(booking.scheduledAt, booking.scheduledOffsetMinutes);

const minutes = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');
const pad = (value: number) => String(value).padStart(2, '0');
