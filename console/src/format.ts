const dateTime = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** A timestamp of the API in the browser's time zone. */
export const when = (timestamp: string | null | undefined) =>
  timestamp ? dateTime.format(new Date(timestamp)) : '—';

/** `YYYY-MM-DD` of a date input, plus days, as the API's date (midnight UTC). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The filters of a date range (to: inclusive) as the API's created_after/created_before. */
export function dateRange(from: string, to: string) {
  return {
    created_after: from || undefined,
    created_before: to ? addDays(to, 1) : undefined,
  };
}
