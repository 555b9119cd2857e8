import { type SQL, sql } from 'drizzle-orm';

/**
 * Time is injected so tests are deterministic. Instants are microseconds since the epoch
 * (JS Date holds only milliseconds, and the contract keeps microseconds end to end).
 */
export interface Clock {
  /** Microseconds since the epoch. */
  nowMicros(): number;
}

export const systemClock: Clock = {
  nowMicros: () => Math.floor((performance.timeOrigin + performance.now()) * 1000),
};

/** A clock the tests move by hand. */
export class ManualClock implements Clock {
  constructor(private micros: number = Date.parse('2026-03-02T09:00:00Z') * 1000) {}
  nowMicros(): number {
    return this.micros;
  }
  set(iso: string): void {
    this.micros = parseTimestamp(iso);
  }
  advance(seconds: number): void {
    this.micros += Math.round(seconds * 1_000_000);
  }
}

/** `2026-03-01T09:15:02.123456Z` from microseconds. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const frac = String(micros % 1_000_000).padStart(6, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}Z`;
}

/** Parses an ISO 8601 timestamp with a zone, keeping up to six fractional digits. */
export function parseTimestamp(value: string): number {
  const parts = parseTimestampParts(value);
  return parts ? parts.secondMs * 1000 + parts.micros : Number.NaN;
}

/**
 * An ISO 8601 timestamp with a zone as its whole second (epoch milliseconds) and the
 * microseconds into it, both exact: microseconds since the epoch lose precision as a number
 * before 1685 and after 2255. Undefined when unreadable.
 */
export function parseTimestampParts(
  value: string,
): { secondMs: number; micros: number } | undefined {
  const m =
    /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,9}))?(Z|[+-]\d{2}(?::?\d{2})?)$/i.exec(
      value.trim(),
    );
  if (!m) return undefined;
  const zone = m[4].toUpperCase() === 'Z' ? 'Z' : normalizeZone(m[4]);
  const secondMs = Date.parse(`${m[1]}T${m[2].length === 5 ? `${m[2]}:00` : m[2]}${zone}`);
  if (Number.isNaN(secondMs)) return undefined;
  const frac = (m[3] ?? '').slice(0, 6).padEnd(6, '0');
  return { secondMs, micros: Number(frac) };
}

function normalizeZone(zone: string): string {
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${(digits.slice(2) || '00').padEnd(2, '0')}`;
}

/**
 * The database hands timestamptz back as text (`2026-03-01 09:15:02.1234+00`, session zone
 * UTC); this writes it in the contract's form with exactly six fractional digits.
 */
export function formatDbTimestamp(value: string | null): string | null {
  if (value === null) return null;
  const micros = parseTimestamp(value);
  if (Number.isNaN(micros)) throw new Error(`unreadable timestamp from database: ${value}`);
  return formatMicros(micros);
}

/** The `to_char` format (an SQL literal) of the contract's form: `2026-03-01T09:15:02.123456Z`. */
export const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** Timestamp text in the contract's form, made by the database (no driver differences). */
export function isoText(column: SQL | unknown): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', ${sql.raw(ISO_FORMAT)})`;
}
