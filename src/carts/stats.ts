import type { Database } from '../db/client.js';
import { Params, statement } from '../db/statement.js';
import type { AuthUser } from '../http/auth.js';
import { cartConditions, needsStores, readCartFilter, whereClause } from './filter.js';
import { rollupEligible, rollupSeries, rollupStats } from './rollups.js';
import type { CartFilters, CartStats, TimeSeriesQuery } from './schemas.js';

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
): Promise<string> {
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
    text = `select to_char(${bucket}, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as interval,
        ${total}::float8 as total
      from carts c ${needsStores(filter) ? stores : ''}
      ${whereClause(cartConditions(filter, p))}
      group by ${bucket} order by ${bucket}`;
  }
  const [{ series }] = await database.run<{ series: string }>(
    statement(`select coalesce(json_agg(json_build_object('total', s.total, 'interval', s.interval)
      order by s.interval collate "C"), '[]')::text as series from (${text}) s`),
    p.values,
  );
  return series;
}
