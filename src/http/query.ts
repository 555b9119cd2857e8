import { parse } from 'node:querystring';
import { Type } from 'typebox';
import { parseTimestampParts } from '../clock.js';
import { errors } from './errors.js';

/** Boolean query values of docs/http-contract.md; anything else is a 400 on that parameter. */
export const BoolQuerySchema = Type.Union(
  ['True', 'False', 'true', 'false', '1', '0'].map((v) => Type.Literal(v)),
  { description: 'True, False, true, false, 1 or 0' },
);

export const isTrue = (value: string | undefined): boolean | undefined =>
  value === undefined ? undefined : value === 'True' || value === 'true' || value === '1';

export const DateTimeQuerySchema = Type.String({
  description: 'ISO 8601 date (midnight UTC) or date-time with a zone, in years 0001 to 9999 (UTC)',
  examples: ['2026-03-01', '2026-03-01T09:15:02Z'],
});

export const IntegerQuerySchema = Type.String({
  pattern: '^[0-9]{1,9}$',
  errorMessage: 'A valid integer is required.',
});

/**
 * The instants a date/time query value may name: years 0001 to 9999 in UTC, those of four
 * digits. PostgreSQL's timestamptz reaches from 4713 BC to 294276 AD but has no year 0 and
 * other forms for years outside these; JavaScript's Date stops at 275760.
 */
const FIRST_MS = Date.parse('0001-01-01T00:00:00Z');
const END_MS = Date.parse('+010000-01-01T00:00:00Z');

/**
 * A date or date-time query value as the contract's timestamp text (six fractional digits,
 * `Z`), ready for a timestamptz comparison; a 400 on `name` when unreadable or out of range.
 */
export function dateTimeQuery(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parts = parseTimestampParts(
    /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value,
  );
  const dateOk = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (
    !parts ||
    !dateOk ||
    !validCalendarDate(dateOk) ||
    // A zone can carry 0001-01-01T00:30+01:00 into year 0, or 9999-12-31T23:00-01:00 out.
    parts.secondMs < FIRST_MS ||
    parts.secondMs >= END_MS
  ) {
    throw errors.field(name, 'Enter a valid date/time.');
  }
  const second = new Date(parts.secondMs).toISOString().slice(0, 19);
  return `${second}.${String(parts.micros).padStart(6, '0')}Z`;
}

function validCalendarDate([, y, m, d]: RegExpExecArray): boolean {
  // setUTCFullYear, not Date.UTC: that reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(m) - 1, Number(d));
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
