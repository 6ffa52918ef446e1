/** How the console writes a time in a booking's own UTC offset (D29), as the service shows the booking. */

const pad = (value: number) => String(value).padStart(2, '0');

/** `-300` -> `-05:00`, `330` -> `+05:30`. */
export const offsetText = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

/**
 * A `datetime-local` value read as a time in the booking's offset, not the browser's time zone: `2026-12-01T09:30`
 * at -300 -> `2026-12-01T09:30:00-05:00`, which the service keeps with that offset. Empty when none was given.
 */
export const inOffset = (local: string, minutes: number) =>
  // A browser may give seconds (`10:30:15`); a start is to the minute.
  local ? `${local.slice(0, 16)}:00${offsetText(minutes)}` : '';
