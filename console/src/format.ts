import { locale, t } from './i18n';

/*
 * Every date, time, number and duration the console shows, through `Intl` with the
 * language's locale (i18n/index.ts). Formatters are made per call: the language may change.
 */

/** A timestamp of the API in the browser's time zone: "27.11.2026, 15:46". */
export const when = (timestamp: string | null | undefined) =>
  timestamp
    ? new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(timestamp),
      )
    : '—';

/** A day (`YYYY-MM-DD` or a UTC bucket start) as a date: "27.11.2026". */
export const day = (value: string) =>
  new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(value.length === 10 ? `${value}T00:00:00Z` : value),
  );

/** A day without its year, for a chart's axis: "27. Nov.", "27 Nov". */
export const shortDay = (value: string) =>
  new Intl.DateTimeFormat(locale(), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(value.length === 10 ? `${value}T00:00:00Z` : value),
  );

/** A month (`YYYY-MM` or a UTC bucket start): "November 2026". */
export const month = (value: string) =>
  new Intl.DateTimeFormat(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(value.length === 7 ? `${value}-01T00:00:00Z` : value),
  );

/** A count: "44.059" in German, "44,059" in English. */
export const num = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : new Intl.NumberFormat(locale()).format(value);

/** A share (0..1) as a percentage; "—" when there is nothing to divide. */
export const percent = (part: number, whole: number) =>
  whole > 0
    ? new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(
        part / whole,
      )
    : '—';

/** `HH:MM:SS` as words: "3 hours 30 minutes" / "3 Stunden 30 Minuten". */
export function duration(value: string): string {
  const [h = 0, m = 0, s = 0] = value.split(':').map(Number);
  const unit = (amount: number, name: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(locale(), { style: 'unit', unit: name, unitDisplay: 'long' }).format(
      amount,
    );
  const parts = [
    h ? unit(h, 'hour') : '',
    m ? unit(m, 'minute') : '',
    s ? unit(s, 'second') : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : unit(0, 'minute');
}

/** The order of day, month and year in the locale's short date ("31.01.2020"). */
function dateOrder(): ('day' | 'month' | 'year')[] {
  return new Intl.DateTimeFormat(locale(), { day: '2-digit', month: '2-digit', year: 'numeric' })
    .formatToParts(new Date(Date.UTC(2020, 0, 31)))
    .map((p) => p.type)
    .filter((type): type is 'day' | 'month' | 'year' => ['day', 'month', 'year'].includes(type));
}

/** `YYYY-MM-DD` in the locale's short form, as a date field shows it. */
export const dateText = (iso: string) =>
  iso
    ? new Intl.DateTimeFormat(locale(), {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${iso}T00:00:00Z`))
    : '';

/** The pattern a date field asks for: "TT.MM.JJJJ", "DD/MM/YYYY", "MM/DD/YYYY". */
export function datePattern(): string {
  const sample = dateText('2020-01-31');
  const names = { day: t('date.dd'), month: t('date.mm'), year: t('date.yyyy') };
  const values = { day: '31', month: '01', year: '2020' };
  let pattern = sample;
  for (const part of dateOrder()) pattern = pattern.replace(values[part], names[part]);
  return pattern;
}

/** A date typed in the locale's form as `YYYY-MM-DD`; null when it is not a whole, real date. */
export function parseDate(text: string): string | null {
  const numbers = text.match(/\d+/g);
  if (numbers?.length !== 3) return null;
  const parts: Record<string, number> = {};
  dateOrder().forEach((part, i) => {
    parts[part] = Number(numbers[i]);
  });
  const { day: d, month: m, year: y } = parts;
  if (!(y >= 1000 && y <= 9999)) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return null;
  return date.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` of a date input, plus days, as the API's date (midnight UTC). */
export function addDays(value: string, days: number): string {
  const date = new Date(`${value}T00:00:00Z`);
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
