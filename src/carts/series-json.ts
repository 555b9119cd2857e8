import fastJson from 'fast-json-stringify';
import { formatMicros } from '../clock.js';
import { TimeSeriesEntrySchema } from './schemas.js';

/**
 * A time series answer written straight from the database's `bucket:total,…` text. An
 * answer holds up to hundreds of buckets and the same days recur in every answer, so each
 * bucket's entry text is made once, by the schema's own serializer, and kept; building and
 * serializing an object per bucket cost more than the query (issue 9).
 */
const entryJson = fastJson(TimeSeriesEntrySchema);

/** A total no timestamp text contains: where it falls splits an entry around its total. */
const MARK = 987_654_321;

/** Per bucket start (seconds since the epoch): the entry's text around its total. */
const fragments = new Map<number, readonly [string, string]>();
const MAX_FRAGMENTS = 100_000;

function fragment(seconds: number): readonly [string, string] {
  let parts = fragments.get(seconds);
  if (parts === undefined) {
    const text = entryJson({ total: MARK, interval: formatMicros(seconds * 1_000_000) });
    const [head, tail, ...rest] = text.split(String(MARK));
    if (tail === undefined || rest.length > 0) throw new Error(`unexpected entry text ${text}`);
    parts = [head!, tail];
    if (fragments.size >= MAX_FRAGMENTS) fragments.clear();
    fragments.set(seconds, parts);
  }
  return parts;
}

const COLON = 58;
const MINUS = 45;

/**
 * `[{"total":…,"interval":…},…]` in bucket order from `bucket:total,bucket:total` in any
 * order (null: no bucket). A bucket is a whole number of `unitSeconds` since the epoch; a
 * total is an integer written by the database, copied as it is.
 */
export function seriesJson(series: string | null, unitSeconds: number): string {
  if (!series) return '[]';
  const buckets: number[] = [];
  const totals: string[] = [];
  let sorted = true;
  for (let i = 0; i < series.length; i++) {
    const sign = series.charCodeAt(i) === MINUS ? -1 : 1;
    if (sign < 0) i++;
    let bucket = 0;
    for (let c = series.charCodeAt(i); c !== COLON; c = series.charCodeAt(++i)) {
      bucket = bucket * 10 + c - 48;
    }
    bucket *= sign;
    const start = i + 1;
    i = series.indexOf(',', start);
    if (i < 0) i = series.length;
    if (buckets.length > 0 && bucket < buckets[buckets.length - 1]!) sorted = false;
    buckets.push(bucket);
    totals.push(series.slice(start, i));
  }
  // The database aggregates without ORDER BY (a sort per answer in PostgreSQL 15); the
  // buckets nearly always come in order, and are sorted here when not.
  const order = buckets.map((_, k) => k);
  if (!sorted) order.sort((a, b) => buckets[a]! - buckets[b]!);
  let json = '[';
  for (const k of order) {
    const [head, tail] = fragment(buckets[k]! * unitSeconds);
    json += (json.length === 1 ? '' : ',') + head + totals[k] + tail;
  }
  return `${json}]`;
}
