import type { Params } from '../db/statement.js';
import { type CartFilter, flagConditions } from './filter.js';

/**
 * Staff read counts and totals over every cart (a million and more, years of them). A trigger
 * on `carts` keeps, in the same transaction as every change (migrations 0001, 0004, 0006):
 *
 * - per store, UTC day of creation, checked-out flag and availability-error flag: the number
 *   of carts and the sums of their lines and quantities (`cart_rollups`), the numbers again
 *   apart (`cart_counts`);
 * - per store and flags, per UTC month and over all time (`cart_grains`);
 * - over all stores, per day, month and all time, flags and warehouse or not, in 32 shards
 *   (`cart_grains_all`); and per day and per hour alone, whatever the flags (`cart_days`,
 *   `cart_hours`, sharded too).
 *
 * A figure over a range reads the coarsest grain that covers whole periods of it: all time
 * when the range is open on both sides; else whole months, the whole days at its edges, and
 * the partial first and last days: over all stores and flags, their whole hours from
 * `cart_hours` and the partial first and last hours from `carts` itself; else those days
 * from `carts` (the `created` index reads at most two days of a store or a flag). So no
 * figure sums one row per store per day: a store's figures or those over all stores cost
 * the same whatever the number of stores and years (decision 0010). Filters
 * the rollups cannot answer (a customer's own carts, `active`, `each_user`, `user`) read
 * `carts`.
 */
export function rollupEligible(f: CartFilter): boolean {
  return f.ownerId === undefined && f.active === undefined && !f.eachUser && f.userId === undefined;
}

/**
 * One part of the answer: rows of a grain, or a range of `carts`. Numbers of carts and of
 * lines are summed as `int` per row (a row never holds more carts or lines than there are
 * ids, `serial`), so their sums are `bigint`: a `bigint` column would sum as `numeric`, 3×
 * slower over a daily series of years. Quantities stay `bigint`.
 */
interface Part {
  /** The rows, from a rollup table as `r`, or `carts c`. */
  from: string;
  where: string[];
  /** Per row: number of carts, lines, quantity; and the UTC date its period starts. */
  carts: string;
  lines: string;
  quantity: string;
  at: string;
  /** The period a row covers: an hour, a day, a month, all time. */
  grain: 'H' | 'D' | 'M' | 'T';
}

/** The grains of the rollup tables read by period (hours are read by `edgeHours`). */
type Stored = Exclude<Part['grain'], 'H'>;

const CART_DAYS = 'cart_days r';
const CART_HOURS = 'cart_hours r';

/**
 * The rows of a grain the filter's flags keep. A store's (`gln`): days from `cart_rollups`
 * (`cart_counts` when only numbers of carts are read: its pages stay all-visible, an
 * index-only scan), months and all time from `cart_grains`. Over all stores:
 * `cart_grains_all`, its shards summed; days with no flag filter from `cart_days` (one row a
 * day instead of one per combination of flags: ten years of days stay cheap).
 */
function grainPart(f: CartFilter, p: Params, grain: Stored, countsOnly: boolean): Part {
  if (f.gln !== undefined) {
    if (grain === 'D') {
      return {
        from: countsOnly ? 'cart_counts r' : 'cart_rollups r',
        where: flagConditions(f, p, 'r'),
        carts: 'r.carts',
        lines: 'r.items_count',
        quantity: 'r.total_quantity',
        at: 'r.day',
        grain,
      };
    }
    return {
      from: 'cart_grains r',
      where: [`r.grain = '${grain}'`, ...flagConditions(f, p, 'r')],
      carts: 'r.carts::int',
      lines: 'r.items_count::int',
      quantity: 'r.total_quantity',
      at: 'r.period',
      grain,
    };
  }
  const flagless =
    !f.excludeWarehouse && f.checkedOut === undefined && f.availabilityError === undefined;
  if (grain === 'D' && flagless) {
    // One row per day (its shards summed), whatever the stores and flags.
    return {
      from: CART_DAYS,
      where: [],
      carts: 'r.carts::int',
      lines: 'r.items_count::int',
      quantity: 'r.total_quantity',
      at: 'r.day',
      grain,
    };
  }
  const where = [`r.grain = '${grain}'`];
  if (f.excludeWarehouse) where.push('not r.warehouse');
  if (f.checkedOut !== undefined) where.push(`${f.checkedOut ? '' : 'not '}r.checked_out`);
  if (f.availabilityError !== undefined) {
    where.push(`${f.availabilityError ? '' : 'not '}r.checkout_availability_error`);
  }
  return {
    from: 'cart_grains_all r',
    where,
    carts: 'r.carts::int',
    lines: 'r.items_count::int',
    quantity: 'r.total_quantity',
    at: 'r.period',
    grain,
  };
}

/**
 * The parts whose rows together hold each cart the filter keeps exactly once. `total`: one
 * figure, from the all-time grain when the range is open on both sides, else as `months`;
 * `months`: whole months of the range from the month grain; `days`: whole days only (weekly
 * buckets straddle months).
 */
function parts(
  f: CartFilter,
  p: Params,
  countsOnly: boolean,
  grain: 'total' | 'months' | 'days',
): Part[] {
  const months = grain !== 'days';
  const raw = (where: string[]): Part => ({
    from: 'carts c',
    where: [...flagConditions(f, p, 'c'), ...where],
    carts: '1',
    lines: 'c.items_count',
    quantity: 'c.total_quantity',
    at: `(c.created at time zone 'UTC')::date`,
    grain: 'D',
  });
  const after = f.after === undefined ? undefined : `${p.add(f.after)}::timestamptz`;
  const before = f.before === undefined ? undefined : `${p.add(f.before)}::timestamptz`;
  if (grain === 'total' && !after && !before) return [grainPart(f, p, 'T', countsOnly)];
  const day = (t: string) => `(${t} at time zone 'UTC')::date`;
  const midnight = (d: string) => `(${d})::timestamp at time zone 'UTC'`;
  const result: Part[] = [];
  if (hourly(f)) result.push(...edgeHours(after, before, raw));
  else {
    // The partial first and last days, from `carts`.
    if (after) {
      const end = midnight(`${day(after)} + 1`);
      const upTo = before ? `least(${end}, ${before})` : end;
      result.push(raw([`c.created > ${after}`, `c.created < ${upTo}`]));
    }
    if (before) {
      const start = midnight(day(before));
      // Disjoint from the first day's range when both bounds fall on one day.
      const from = after ? `greatest(${start}, ${midnight(`${day(after)} + 1`)})` : start;
      result.push(raw([`c.created >= ${from}`, `c.created < ${before}`]));
    }
  }
  // Whole days: after the first day (`lo`), before the last (`end`, exclusive).
  const lo = after ? `${day(after)} + 1` : undefined;
  const end = before ? day(before) : undefined;
  /** The rows of a grain whose period starts at or after `from`, before each of `to`. */
  const span = (grain: Stored, from: string | undefined, to: (string | undefined)[]) => {
    const part = grainPart(f, p, grain, countsOnly);
    if (from) part.where.push(`${part.at} >= ${from}`);
    for (const bound of to) if (bound) part.where.push(`${part.at} < ${bound}`);
    return part;
  };
  if (!months) {
    result.push(span('D', lo, [end]));
    return result;
  }
  // Whole months [mLo, mHi) of the whole days; the days before mLo and from mHi on.
  const mLo = after
    ? `(date_trunc('month', ${day(after)}::timestamp) + interval '1 month')::date`
    : undefined;
  const mHi = before ? `date_trunc('month', ${day(before)}::timestamp)::date` : undefined;
  result.push(span('M', mLo, [mHi]));
  if (lo && mLo) result.push(span('D', lo, [mLo, end]));
  if (end && mHi) result.push(span('D', mLo ? `greatest(${mLo}, ${mHi})` : mHi, [end]));
  return result;
}

/** Over all stores and flags, the partial days at a range's edges read `cart_hours`. */
const hourly = (f: CartFilter) =>
  f.gln === undefined &&
  !f.excludeWarehouse &&
  f.checkedOut === undefined &&
  f.availabilityError === undefined;

/**
 * The partial first and last days of a range over all stores and flags: their whole hours
 * from `cart_hours`, the partial first and last hours from `carts` (at most two hours of
 * carts, whatever the number of carts a day holds). With `A` the first whole hour after
 * `after` and `B` the hour `before` falls in (never before `A`), the range is `carts` in
 * (after, A), hours [A, next midnight) and [midnight of `before`'s day, B), `carts` in
 * [B, before); the whole days between are the caller's. When both bounds fall in one day or
 * hour, the parts are empty where they would overlap.
 */
function edgeHours(
  after: string | undefined,
  before: string | undefined,
  raw: (where: string[]) => Part,
): Part[] {
  const utc = (t: string) => `(${t} at time zone 'UTC')`;
  const instant = (stamp: string) => `(${stamp}) at time zone 'UTC'`;
  const firstHour = after && `date_trunc('hour', ${utc(after)}) + interval '1 hour'`;
  const lastHour =
    before &&
    (firstHour
      ? `greatest(${firstHour}, date_trunc('hour', ${utc(before)}))`
      : `date_trunc('hour', ${utc(before)})`);
  // The first whole day (after `after`'s) and the last day's midnight (not before it).
  const firstDay = after && `(${utc(after)}::date + 1)::timestamp`;
  const lastDay =
    before &&
    (firstDay
      ? `greatest(${firstDay}, ${utc(before)}::date::timestamp)`
      : `${utc(before)}::date::timestamp`);
  const hours = (where: string[]): Part => ({
    from: CART_HOURS,
    where,
    carts: 'r.carts::int',
    lines: 'r.items_count::int',
    quantity: 'r.total_quantity',
    at: 'r.hour::date',
    grain: 'H',
  });
  const result: Part[] = [];
  if (after && firstHour && firstDay) {
    const upTo = before ? `least(${instant(firstHour)}, ${before})` : instant(firstHour);
    result.push(raw([`c.created > ${after}`, `c.created < ${upTo}`]));
    result.push(
      hours([
        `r.hour >= ${firstHour}`,
        `r.hour < ${lastHour ? `least(${firstDay}, ${lastHour})` : firstDay}`,
      ]),
    );
  }
  if (before && lastHour && lastDay) {
    result.push(hours([`r.hour >= ${lastDay}`, `r.hour < ${lastHour}`]));
    result.push(raw([`c.created >= ${instant(lastHour)}`, `c.created < ${before}`]));
  }
  return result;
}

const where = (conditions: string[]) =>
  conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`;

/** Totals of the carts the filter keeps: one row (carts, lines, quantity). */
export function rollupTotals(f: CartFilter, p: Params, column: 'carts' | 'lines' | 'quantity') {
  const union = parts(f, p, column === 'carts', 'total')
    .map((part) => `select ${part[column]} as n from ${part.from} ${where(part.where)}`)
    .join(' union all ');
  return `select coalesce(sum(n), 0)::float8 from (${union}) t`;
}

/** Stats over the rollups: `total_quantity`, `total_items`. */
export function rollupStats(f: CartFilter, p: Params): string {
  const union = parts(f, p, false, 'total')
    .map(
      (part) =>
        `select ${part.lines} as lines, ${part.quantity} as quantity from ${part.from} ${where(part.where)}`,
    )
    .join(' union all ');
  return `select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (${union}) t`;
}

/**
 * A time series over the rollups: buckets of a month, a week (from Monday) or a day (hours
 * are finer than the rollups), holding at least one cart; each bucket is the date it starts.
 * Monthly buckets read whole months from the month grain; a row whose grain is the bucket's
 * is its own bucket, so a store's daily series is read in index order. The whole statement:
 * one `series` text of `bucket:total` (days since the epoch), in any order.
 */
export function rollupSeries(
  f: CartFilter,
  p: Params,
  unit: 'month' | 'week' | 'day',
  aggregate: 'carts' | 'items',
): string {
  const items = aggregate === 'items';
  const bucket = (part: Part) =>
    part.grain === unit[0]!.toUpperCase() || (part.grain === 'H' && unit === 'day')
      ? part.at
      : `date_trunc('${unit}', ${part.at}::timestamp)::date`;
  const all = parts(f, p, !items, unit === 'month' ? 'months' : 'days');
  if (unit === 'day' && all.some((part) => part.from === CART_DAYS)) {
    return daySeries(all, items);
  }
  const union = all
    .map(
      (part) => `select ${bucket(part)} as bucket, ${part.carts} as carts
        ${items ? `, ${part.lines} as lines` : ''} from ${part.from} ${where(part.where)}`,
    )
    .join(' union all ');
  const total = items ? 'sum(lines)' : 'sum(carts)';
  return `select ${listed('t.bucket', 't.total')} as series from (select bucket, ${total} as total
    from (${union}) u group by bucket having sum(carts) > 0) t`;
}

/** The aggregate that writes rows of a date and a total as `bucket:total,…`. */
const listed = (day: string, total: string) =>
  `string_agg((${day} - date '1970-01-01') || ':' || ${total}, ',')`;

/**
 * A daily series over all stores and flags, without aggregating what is one row a day
 * already. Of `cart_days`, which holds the whole days, every day before the first one with
 * shards (today, or a closed day not yet folded) is one row, listed as it is in one plain
 * scan: ten years of days cost that scan and no join, hash or sort of 3,650 rows. The days
 * from that one on (a day or two, most days) are summed, with the edges (the partial first
 * and last days: their hours from `cart_hours`, their partial hours from `carts`).
 */
function daySeries(all: Part[], items: boolean): string {
  const value = (part: Part) => (items ? part.lines : part.carts);
  /** A part's rows to be summed by bucket: its own conditions and `more`. */
  const rows = (part: Part, more: string[] = []) =>
    `select ${part.at} as bucket, ${part.carts} as carts, ${value(part)} as v
      from ${part.from} ${where([...part.where, ...more])}`;
  const days = CART_DAYS.replace(' r', ' u');
  const firstSharded = `(select coalesce(min(u.day), 'infinity') from ${days} where u.shard <> 0)`;
  const lastDay = `(select max(u.day) from ${days})`;
  const lists: string[] = [];
  const summed: string[] = [];
  for (const part of all) {
    if (part.from !== CART_DAYS) {
      summed.push(rows(part));
      continue;
    }
    // `r.day + 0`: a bound known only when the statement runs is planned as keeping a third
    // of the rows, which makes a bitmap scan of the index look cheaper; nearly every row is
    // kept, and a plain scan costs a quarter less (measured over ten years of days).
    lists.push(`(select ${listed('r.day', value(part))} from ${part.from}
      ${where([...part.where, 'r.shard = 0', 'r.carts > 0', `r.day + 0 < ${firstSharded}`])})`);
    // Up to the last day: a range between two bounds is planned as a few rows, so the index
    // reads them (a day or two), where a bound on one side is planned as a third of them.
    summed.push(rows(part, [`r.day between ${firstSharded} and ${lastDay}`]));
  }
  lists.push(`(select ${listed('s.bucket', 's.total')} from (select bucket, sum(v) as total
    from (${summed.join(' union all ')}) e group by 1 having sum(carts) > 0) s)`);
  return `select concat_ws(',', ${lists.join(', ')}) as series`;
}
