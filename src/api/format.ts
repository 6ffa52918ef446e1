/**
 * D4: UTC with six fractional digits. JavaScript dates hold milliseconds, so the last three are zeros. `toISOString()`
 * always ends in milliseconds and `Z`: a slice, not a regular expression, on every date of every answer.
 */
export const formatTimestamp = (date: Date): string => `${date.toISOString().slice(0, -1)}000Z`;

export const formatOptionalTimestamp = (date: Date | null | undefined): string | null =>
  date ? formatTimestamp(date) : null;
