import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { HotStatements, Params, type Statement } from '../db/statement.js';
import { type AuthUser, CALLER_ALONE, currentUser, isStaff, readWithCaller } from '../http/auth.js';
import {
  ANY_INSTANT,
  type CartFilter,
  cartConditions,
  needsStores,
  readCartFilter,
  whereClause,
} from './filter.js';
import { foldGrainsDaily } from './grain-fold.js';
import { rollupEligible, rollupSeries, rollupStats } from './rollups.js';
import type { CartFilters, CartStats, TimeSeriesQuery } from './schemas.js';
import { seriesJson } from './series-json.js';

const stores = 'left join stores s on s.id = c.store_id';

/** Total quantity and item lines of the carts the filters keep: one statement. */
export async function cartStats(
  database: Database,
  request: FastifyRequest,
  query: CartFilters,
  nowMicros: number,
): Promise<CartStats> {
  const hot = await staffReadWithCaller<CartStats>(request, database, nowMicros, (staff) => {
    const filter = readCartFilter(staff, query, nowMicros);
    const p = new Params();
    return {
      statement: statsStatement(filter, p),
      values: p.values,
      rollups: rollupEligible(filter),
    };
  });
  if (hot) return { total_quantity: hot.total_quantity, total_items: hot.total_items };
  const filter = readCartFilter(currentUser(request), query, nowMicros);
  const p = new Params();
  if (rollupEligible(filter)) await foldGrainsDaily(database, nowMicros);
  const [row] = await database.run<CartStats>(statsStatement(filter, p), p.values);
  return row;
}

/** A read's statement, its values, and whether it reads the rollups (folded first). */
interface Read {
  statement: Statement;
  values: unknown[];
  rollups: boolean;
}

/** Any staff member: the filters (and so the texts) of staff's reads do not depend on who. */
const ANY_STAFF = { id: 0, isStaff: true, isAdmin: false } as AuthUser;

/**
 * Behind a pooler, where the caller is still to be looked up (`callerInRead`): staff's read
 * and the caller in one call, where the read has such a call (`pooledWithCaller`, the hot
 * shapes); its figures count only when the database says the caller is staff. Otherwise (a
 * customer, whose read is of their own carts; a shape without a function) the call looks the
 * caller up alone and undefined sends the route on to its usual read.
 */
async function staffReadWithCaller<Row extends object>(
  request: FastifyRequest,
  database: Database,
  nowMicros: number,
  readAs: (staff: AuthUser) => Read,
): Promise<Row | undefined> {
  if (!request.pendingCaller) return undefined;
  const read = readAs(ANY_STAFF);
  const call = read.statement.pooledWithCaller;
  if (call && read.rollups) await foldGrainsDaily(database, nowMicros);
  const both = await readWithCaller<Row>(
    request,
    database,
    call ?? CALLER_ALONE,
    call ? read.values : [],
  );
  return both && call && isStaff(both.user) ? both.row : undefined;
}

/** The stats' statement: a fixed one for the hot shapes (`HOT`), else built and unnamed. */
export const statsStatement = (filter: CartFilter, p: Params): Statement =>
  HOT.of(statsText(filter, p));

function statsText(filter: CartFilter, p: Params): string {
  return rollupEligible(filter)
    ? rollupStats(filter, p)
    : `select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c ${needsStores(filter) ? stores : ''}
        ${whereClause(cartConditions(filter, p))}`;
}

const TRUNC_UNIT = { M: 'month', W: 'week', D: 'day', H: 'hour' } as const;

/**
 * Carts (or their item lines) per UTC month, week (from Monday), day or hour of creation;
 * empty buckets left out. The answer's JSON text (`TimeSeriesSchema`).
 */
export async function cartTimeSeries(
  database: Database,
  request: FastifyRequest,
  query: TimeSeriesQuery,
  nowMicros: number,
): Promise<string> {
  let unitSeconds = 1;
  const hot = await staffReadWithCaller<{ series: string | null }>(
    request,
    database,
    nowMicros,
    (staff) => {
      const p = new Params();
      const series = seriesText(readCartFilter(staff, query, nowMicros), query, p);
      unitSeconds = series.unitSeconds;
      return { statement: HOT.of(series.text), values: p.values, rollups: series.rollups };
    },
  );
  if (hot) return seriesJson(hot.series, unitSeconds);
  const filter = readCartFilter(currentUser(request), query, nowMicros);
  const p = new Params();
  const series = seriesText(filter, query, p);
  if (series.rollups) await foldGrainsDaily(database, nowMicros);
  // `start:total,…` in one text: cheaper to write and read than rows or JSON.
  const [row] = await database.run<{ series: string | null }>(HOT.of(series.text), p.values);
  return seriesJson(row.series, series.unitSeconds);
}

/** The series' statement: a fixed one for the hot shapes (`HOT`), else built and unnamed. */
export const seriesStatement = (filter: CartFilter, query: TimeSeriesQuery, p: Params): Statement =>
  HOT.of(seriesText(filter, query, p).text);

/** A series' statement: its text, whether it reads the rollups, the unit of its buckets. */
function seriesText(
  filter: CartFilter,
  query: TimeSeriesQuery,
  p: Params,
): { text: string; rollups: boolean; unitSeconds: number } {
  const unit = TRUNC_UNIT[query.interval ?? 'D'];
  const aggregate = query.aggregate === 'items' ? 'items' : 'carts';
  // Bucket starts as whole numbers: the rollups' buckets are dates (days since the epoch),
  // the others timestamps (seconds).
  if (unit !== 'hour' && rollupEligible(filter)) {
    return { text: rollupSeries(filter, p, unit, aggregate), rollups: true, unitSeconds: 86_400 };
  }
  const bucket = `date_trunc('${unit}', c.created at time zone 'UTC')`;
  const total = aggregate === 'items' ? 'sum(c.items_count)' : 'count(*)';
  return {
    text: `select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select ${bucket} as bucket, ${total} as total
        from carts c ${needsStores(filter) ? stores : ''}
        ${whereClause(cartConditions(filter, p))}
        group by ${bucket}) s`,
    rollups: false,
    unitSeconds: 1,
  };
}

/**
 * The stats and series staff ask for most (over all carts, of a store, between dates or
 * from or up to one; series by day, week and month, of carts or lines) as fixed statements,
 * their texts made by the same functions as a request's, so they cannot drift: parsing and
 * planning cost about half of these answers' database time (a daily series over all carts:
 * 0.8 → 0.4 ms at 1M carts). Behind a pooler each runs as its PL/pgSQL function (migration
 * 0021, the same text; decision 0016), whose plan the pooler's server connection keeps.
 */
const HOT = new HotStatements();

/** A hot statement's function behind a pooler: its name, text, parameters and answer. */
export interface PooledStats {
  fn: string;
  text: string;
  params: number;
  returns: string;
}
export const POOLED_STATS: PooledStats[] = [];
{
  const staff = ANY_STAFF;
  const shapes: [string, CartFilters][] = [
    ['all', {}],
    ['store', { gln: '0' }],
    ['between', { created_after: ANY_INSTANT, created_before: ANY_INSTANT }],
    ['after', { created_after: ANY_INSTANT }],
    ['before', { created_before: ANY_INSTANT }],
  ];
  const fix = (fn: string, text: string, p: Params, returns: string) => {
    const args = p.values.map((_, i) => `$${i + 1}`).join(', ');
    // With the caller (migration 0022): the caller's id first, then the same values.
    const withCaller = ['$1', ...p.values.map((_, i) => `$${i + 2}`)].join(', ');
    HOT.add(text, p, `select * from ${fn}(${args})`, `select * from ${fn}_as(${withCaller})`);
    POOLED_STATS.push({ fn, text, params: p.values.length, returns });
  };
  for (const [label, shape] of shapes) {
    const filter = readCartFilter(staff, shape, 0);
    let p = new Params();
    fix(`stats_${label}`, statsText(filter, p), p, 'total_quantity float8, total_items float8');
    for (const interval of ['D', 'W', 'M'] as const) {
      for (const aggregate of ['carts', 'items'] as const) {
        p = new Params();
        const text = seriesText(filter, { ...shape, interval, aggregate }, p).text;
        fix(`series_${label}_${interval.toLowerCase()}_${aggregate}`, text, p, 'series text');
      }
    }
  }
}
