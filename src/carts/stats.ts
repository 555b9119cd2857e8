import type { Database } from '../db/client.js';
import { builtStatement, Params } from '../db/statement.js';
import type { AuthUser } from '../http/auth.js';
import { cartConditions, needsStores, readCartFilter, whereClause } from './filter.js';
import { foldGrainsDaily } from './grain-fold.js';
import { rollupEligible, rollupSeries, rollupStats } from './rollups.js';
import type { CartFilters, CartStats, TimeSeriesQuery } from './schemas.js';
import { seriesJson } from './series-json.js';

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
  if (rollupEligible(filter)) await foldGrainsDaily(database, nowMicros);
  const text = rollupEligible(filter)
    ? rollupStats(filter, p)
    : `select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c ${needsStores(filter) ? stores : ''}
        ${whereClause(cartConditions(filter, p))}`;
  const [row] = await database.run<CartStats>(builtStatement(text), p.values);
  return row;
}

const TRUNC_UNIT = { M: 'month', W: 'week', D: 'day', H: 'hour' } as const;

/**
 * Carts (or their item lines) per UTC month, week (from Monday), day or hour of creation;
 * empty buckets left out. The answer's JSON text (`TimeSeriesSchema`).
 */
export async function cartTimeSeries(
  database: Database,
  user: AuthUser,
  query: TimeSeriesQuery,
  nowMicros: number,
): Promise<string> {
  const filter = readCartFilter(user, query, nowMicros);
  const unit = TRUNC_UNIT[query.interval ?? 'D'];
  const aggregate = query.aggregate === 'items' ? 'items' : 'carts';
  const p = new Params();
  let text: string;
  // Bucket starts as whole numbers: the rollups' buckets are dates (days since the epoch),
  // the others timestamps (seconds).
  let start = `date_part('epoch', s.bucket)::bigint`;
  let unitSeconds = 1;
  if (unit !== 'hour' && rollupEligible(filter)) {
    await foldGrainsDaily(database, nowMicros);
    text = rollupSeries(filter, p, unit, aggregate);
    start = `s.bucket - date '1970-01-01'`;
    unitSeconds = 86_400;
  } else {
    const bucket = `date_trunc('${unit}', c.created at time zone 'UTC')`;
    const total = aggregate === 'items' ? 'sum(c.items_count)' : 'count(*)';
    text = `select ${bucket} as bucket, ${total} as total
      from carts c ${needsStores(filter) ? stores : ''}
      ${whereClause(cartConditions(filter, p))}
      group by ${bucket}`;
  }
  // `start:total,…` in one text: cheaper to write and read than rows or JSON.
  const [{ series }] = await database.run<{ series: string | null }>(
    builtStatement(`select string_agg((${start}) || ':' || s.total::bigint, ',') as series
      from (${text}) s`),
    p.values,
  );
  return seriesJson(series, unitSeconds);
}
