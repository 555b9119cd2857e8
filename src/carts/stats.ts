import { formatMicros } from '../clock.js';
import type { Database } from '../db/client.js';
import { Params, statement } from '../db/statement.js';
import type { AuthUser } from '../http/auth.js';
import { cartConditions, needsStores, readCartFilter, whereClause } from './filter.js';
import { rollupEligible, rollupSeries, rollupStats } from './rollups.js';
import type { CartFilters, CartStats, TimeSeries, TimeSeriesQuery } from './schemas.js';

const stores = 'left join stores s on s.id = c.store_id';

/** Total quantity and item lines of the carts the filters keep: one statement. */
export async function cartStats(
  database: Database,
  user: AuthUser,
  query: CartFilters,
  nowMicros: number,
): Promise<CartStats> {
  const filter = readCartFilter(user, query, nowMicros);
  const p = new Params();
  const text = rollupEligible(filter)
    ? rollupStats(filter, p)
    : `select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c ${needsStores(filter) ? stores : ''}
        ${whereClause(cartConditions(filter, p))}`;
  const [row] = await database.run<CartStats>(statement(text), p.values);
  return row;
}

const TRUNC_UNIT = { M: 'month', W: 'week', D: 'day', H: 'hour' } as const;

/**
 * Carts (or their item lines) per UTC month, week (from Monday), day or hour of creation;
 * empty buckets left out.
 */
export async function cartTimeSeries(
  database: Database,
  user: AuthUser,
  query: TimeSeriesQuery,
  nowMicros: number,
): Promise<TimeSeries> {
  const filter = readCartFilter(user, query, nowMicros);
  const unit = TRUNC_UNIT[query.interval ?? 'D'];
  const aggregate = query.aggregate === 'items' ? 'items' : 'carts';
  const p = new Params();
  let text: string;
  if (unit !== 'hour' && rollupEligible(filter)) {
    text = rollupSeries(filter, p, unit, aggregate);
  } else {
    const bucket = `date_trunc('${unit}', c.created at time zone 'UTC')`;
    const total = aggregate === 'items' ? 'sum(c.items_count)' : 'count(*)';
    text = `select ${bucket} as bucket, ${total} as total
      from carts c ${needsStores(filter) ? stores : ''}
      ${whereClause(cartConditions(filter, p))}
      group by ${bucket}`;
  }
  // `seconds:total,…` in one text: cheaper to write and read than rows or JSON.
  const [{ series }] = await database.run<{ series: string | null }>(
    statement(`select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ','
      order by s.bucket) as series from (${text}) s`),
    p.values,
  );
  if (!series) return [];
  return series.split(',').map((pair) => {
    const colon = pair.indexOf(':');
    return {
      interval: bucketText(Number(pair.slice(0, colon))),
      total: Number(pair.slice(colon + 1)),
    };
  });
}

/** Bucket starts as contract timestamps, remembered: the same days recur in every answer. */
const bucketTexts = new Map<number, string>();
function bucketText(seconds: number): string {
  let text = bucketTexts.get(seconds);
  if (text === undefined) {
    if (bucketTexts.size >= 100_000) bucketTexts.clear();
    text = formatMicros(seconds * 1_000_000);
    bucketTexts.set(seconds, text);
  }
  return text;
}
