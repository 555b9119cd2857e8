import type { Params } from '../db/statement.js';
import { type CartFilter, flagConditions } from './filter.js';

/**
 * Staff read counts and totals over every cart (a million and more): `cart_rollups` holds,
 * per store, UTC day of creation, checked-out flag and availability-error flag, the number
 * of carts and the sums of their lines and quantities. A trigger on `carts` keeps it in the
 * same transaction as every change (migration 0001), so it is exact, never eventually so.
 * `cart_counts` holds the numbers of carts again, apart from the sums (migration 0004).
 *
 * It answers filters on those columns and on creation time: whole days inside the range
 * come from the rollups, the partial first and last days from `carts` itself (the
 * `created` index reads at most two days). Filters it cannot answer (a customer's own
 * carts, `active`, `each_user`, `user`) read `carts`.
 */
export function rollupEligible(f: CartFilter): boolean {
  return f.ownerId === undefined && f.active === undefined && !f.eachUser && f.userId === undefined;
}

/** One part of the answer: whole days from the rollups, or a range of `carts`. */
interface Part {
  /** The rows, from `cart_rollups r` (or `cart_counts r`) or `carts c`. */
  from: string;
  where: string[];
  /** Per row: number of carts, lines, quantity; and the UTC day it falls in. */
  carts: string;
  lines: string;
  quantity: string;
  at: string;
}

/**
 * `countsOnly`: only numbers of carts are read, so whole days come from `cart_counts`, whose
 * pages item adds never change (all-visible: index-only scans); its rows have no sums.
 */
function parts(f: CartFilter, p: Params, countsOnly: boolean): Part[] {
  const whole: Part = {
    from: countsOnly ? 'cart_counts r' : 'cart_rollups r',
    where: flagConditions(f, p, 'r'),
    carts: 'r.carts',
    lines: 'r.items_count',
    quantity: 'r.total_quantity',
    at: 'r.day',
  };
  const raw = (where: string[]): Part => ({
    from: 'carts c',
    where: [...flagConditions(f, p, 'c'), ...where],
    carts: '1',
    lines: 'c.items_count',
    quantity: 'c.total_quantity',
    at: `(c.created at time zone 'UTC')::date`,
  });
  const result = [whole];
  const after = f.after === undefined ? undefined : `${p.add(f.after)}::timestamptz`;
  const before = f.before === undefined ? undefined : `${p.add(f.before)}::timestamptz`;
  const day = (t: string) => `(${t} at time zone 'UTC')::date`;
  const midnight = (d: string) => `(${d})::timestamp at time zone 'UTC'`;
  if (after) {
    whole.where.push(`r.day > ${day(after)}`);
    const end = midnight(`${day(after)} + 1`);
    const upTo = before ? `least(${end}, ${before})` : end;
    result.push(raw([`c.created > ${after}`, `c.created < ${upTo}`]));
  }
  if (before) {
    whole.where.push(`r.day < ${day(before)}`);
    const start = midnight(day(before));
    // Disjoint from the first day's range when both bounds fall on one day.
    const from = after ? `greatest(${start}, ${midnight(`${day(after)} + 1`)})` : start;
    result.push(raw([`c.created >= ${from}`, `c.created < ${before}`]));
  }
  return result;
}

const where = (conditions: string[]) =>
  conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`;

/** Totals of the carts the filter keeps: one row (carts, lines, quantity). */
export function rollupTotals(f: CartFilter, p: Params, column: 'carts' | 'lines' | 'quantity') {
  const union = parts(f, p, column === 'carts')
    .map((part) => `select ${part[column]} as n from ${part.from} ${where(part.where)}`)
    .join(' union all ');
  return `select coalesce(sum(n), 0)::float8 from (${union}) t`;
}

/** Stats over the rollups: `total_quantity`, `total_items`. */
export function rollupStats(f: CartFilter, p: Params): string {
  const union = parts(f, p, false)
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
 * Daily buckets group on `day` itself, so a store's series is read in index order.
 */
export function rollupSeries(
  f: CartFilter,
  p: Params,
  unit: 'month' | 'week' | 'day',
  aggregate: 'carts' | 'items',
): string {
  const bucket = (day: string) =>
    unit === 'day' ? day : `date_trunc('${unit}', ${day}::timestamp)::date`;
  const items = aggregate === 'items';
  const union = parts(f, p, !items)
    .map(
      (part) => `select ${bucket(part.at)} as bucket, ${part.carts} as carts
        ${items ? `, ${part.lines} as lines` : ''} from ${part.from} ${where(part.where)}`,
    )
    .join(' union all ');
  const total = items ? 'sum(lines)' : 'sum(carts)';
  return `select bucket, ${total} as total
    from (${union}) t group by bucket having sum(carts) > 0`;
}
