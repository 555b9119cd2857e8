import { parse } from 'node:querystring';
import { Type } from 'typebox';
import { parseTimestamp } from '../clock.js';
import { errors } from './errors.js';

/** Boolean query values of conventions.md; anything else is a 400 on that parameter. */
export const BoolQuery = Type.Union(
  ['True', 'False', 'true', 'false', '1', '0'].map((v) => Type.Literal(v)),
  { description: 'True, False, true, false, 1 or 0' },
);

export const isTrue = (value: string | undefined): boolean | undefined =>
  value === undefined ? undefined : value === 'True' || value === 'true' || value === '1';

export const DateTimeQuery = Type.String({
  description: 'ISO 8601 date (midnight UTC) or date-time with a zone',
  examples: ['2026-03-01', '2026-03-01T09:15:02Z'],
});

export const IntegerQuery = Type.String({
  pattern: '^[0-9]{1,9}$',
  errorMessage: 'A valid integer is required.',
});

/** A date or date-time query value as microseconds; a 400 on `name` when unreadable. */
export function dateTimeQuery(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const micros = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? parseTimestamp(`${value}T00:00:00Z`)
    : parseTimestamp(value);
  const dateOk = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (Number.isNaN(micros) || !dateOk || !validCalendarDate(dateOk)) {
    throw errors.field(name, 'Enter a valid date/time.');
  }
  return micros;
}

function validCalendarDate([, y, m, d]: RegExpExecArray): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}

/** `ordering` with the listed keys, each also with a leading `-` for descending. */
export function OrderingQuery<K extends string>(keys: readonly K[]) {
  return Type.Unsafe<string>(
    Type.Union(
      keys.flatMap((k) => [Type.Literal(k), Type.Literal(`-${k}`)]),
      { description: `One of ${keys.join(', ')}; a leading - sorts descending. Default -created.` },
    ),
  );
}

export function parseOrdering<K extends string>(
  value: string | undefined,
  fallback: `${'' | '-'}${K}`,
): { key: K; descending: boolean } {
  const raw = value ?? fallback;
  return raw.startsWith('-')
    ? { key: raw.slice(1) as K, descending: true }
    : { key: raw as K, descending: false };
}

/** The query string, each parameter once: a repeated one keeps its last value, as in DRF. */
export function parseQueryString(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parse(text))) {
    out[name] = Array.isArray(value) ? (value.at(-1) ?? '') : (value ?? '');
  }
  return out;
}
