/** D4: UTC with six fractional digits. JavaScript dates hold milliseconds, so the last three are zeros. */
export const formatTimestamp = (date: Date): string => date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export const formatOptionalTimestamp = (date: Date | null | undefined): string | null =>
  date ? formatTimestamp(date) : null;
