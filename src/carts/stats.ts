import { eq, sql } from 'drizzle-orm';
import { isoText } from '../clock.js';
import type { Db } from '../db/client.js';
import { carts, stores } from '../db/schema.js';
import type { AuthUser } from '../http/auth.js';
import { cartFilter } from './queries.js';
import type { CartFilters, CartStats, TimeSeries, TimeSeriesQuery } from './schemas.js';

/** Total quantity and item lines of the carts the filters keep. */
export async function cartStats(
  db: Db,
  user: AuthUser,
  query: CartFilters,
  nowMicros: number,
): Promise<CartStats> {
  const [row] = await db
    .select({
      total_quantity: sql<number>`coalesce(sum(${carts.totalQuantity}), 0)::int`,
      total_items: sql<number>`coalesce(sum(${carts.itemsCount}), 0)::int`,
    })
    .from(carts)
    .leftJoin(stores, eq(stores.id, carts.storeId))
    .where(cartFilter(user, query, nowMicros));
  return row;
}

const TRUNC_UNIT = { M: 'month', W: 'week', D: 'day', H: 'hour' } as const;

/**
 * Carts (or their item lines) per UTC month, week (from Monday), day or hour of creation;
 * empty buckets left out.
 */
export async function cartTimeSeries(
  db: Db,
  user: AuthUser,
  query: TimeSeriesQuery,
  nowMicros: number,
): Promise<TimeSeries> {
  const where = cartFilter(user, query, nowMicros);
  const unit = TRUNC_UNIT[query.interval ?? 'D'];
  // A literal, not a parameter: SELECT and GROUP BY must be the same expression.
  const bucket = sql`date_trunc(${sql.raw(`'${unit}'`)}, ${carts.created} at time zone 'UTC')`;
  const total =
    query.aggregate === 'items' ? sql`coalesce(sum(${carts.itemsCount}), 0)` : sql`count(*)`;
  return db
    .select({
      interval: isoText(sql`(${bucket}) at time zone 'UTC'`),
      total: sql<number>`${total}::int`,
    })
    .from(carts)
    .leftJoin(stores, eq(stores.id, carts.storeId))
    .where(where)
    .groupBy(bucket)
    .orderBy(bucket);
}
