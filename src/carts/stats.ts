import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { HotStatements, Params, type Statement } from '../db/statement.js';
import {
  type AuthUser,
  CALLER_ALONE,
  CALLER_JSON,
  currentUser,
  isStaff,
  readWithCaller,
} from '../http/auth.js';
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
  const hot = await readWithCallerAnyRole<CartStats>(request, database, nowMicros, (user) => {
    const filter = readCartFilter(user, query, nowMicros);
    const p = new Params();
    return {
      statement: statsStatement(filter, p),
      values: p.values,
      rollups: rollupEligible(filter),
    };
  });
  if (hot) return { total_quantity: hot.row.total_quantity, total_items: hot.row.total_items };
  const filter = readCartFilter(currentUser(request), query, nowMicros);
  const p = new Params();
  if (rollupEligible(filter)) await foldGrainsDaily(database, nowMicros);
  const [row] = await database.run<CartStats>(statsStatement(filter, p), p.values);
  return row;
}

/** A read's statement, its values, whether it reads the rollups (folded first), its unit. */
interface Read {
  statement: Statement;
  values: unknown[];
  rollups: boolean;
  /** A series' unit of bucket starts (src/carts/series-json.ts). */
  unitSeconds?: number;
}

/** Any staff member: the filters (and so the texts) of staff's reads do not depend on who. */
const ANY_STAFF = { id: 0, isStaff: true, isAdmin: false } as AuthUser;
/** Any customer: the texts of a customer's reads do not depend on who (the id is a value). */
const ANY_CUSTOMER = { id: -1, isStaff: false, isAdmin: false } as AuthUser;

/**
 * Behind a pooler, where the caller is still to be looked up (`callerInRead`): the read and
 * the caller in one call where the shape has such a call (`pooledWithCaller`, the hot shapes:
 * staff's figures for staff, the caller's own for a customer, as the database says who the
 * caller is; migrations 0022 and 0025). Otherwise the call looks the caller up alone and
 * undefined sends the route on to its usual read.
 */
async function readWithCallerAnyRole<Row extends object>(
  request: FastifyRequest,
  database: Database,
  nowMicros: number,
  readAs: (user: AuthUser) => Read,
): Promise<{ row: Row; read: Read } | undefined> {
  const pending = request.pendingCaller;
  if (!pending) return undefined;
  const staff = readAs(ANY_STAFF);
  const own = readAs({ ...ANY_CUSTOMER, id: pending.id });
  // Both shapes hot, the customer's values the caller's id then staff's (POOLED_OWN_STATS).
  const call = own.statement.pooled ? staff.statement.pooledWithCaller : undefined;
  if (call && staff.rollups) await foldGrainsDaily(database, nowMicros);
  const both = await readWithCaller<Row>(
    request,
    database,
    call ?? CALLER_ALONE,
    call ? staff.values : [],
  );
  if (!both || !call) return undefined;
  return { row: both.row, read: isStaff(both.user) ? staff : own };
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
  const hot = await readWithCallerAnyRole<{ series: string | null }>(
    request,
    database,
    nowMicros,
    (user) => {
      const p = new Params();
      const series = seriesText(readCartFilter(user, query, nowMicros), query, p);
      return {
        statement: HOT.of(series.text),
        values: p.values,
        rollups: series.rollups,
        unitSeconds: series.unitSeconds,
      };
    },
  );
  if (hot) return seriesJson(hot.row.series, hot.read.unitSeconds ?? 1);
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
/** Staff's hot stats and series (migration 0021; with the caller, 0022 and 0025). */
export const POOLED_STATS: PooledStats[] = [];
/**
 * A customer's, of their own carts, in the same shapes (migration 0025): the owner's id
 * (integer) first, then the values of staff's statement of that shape, in its order.
 */
export const POOLED_OWN_STATS: PooledStats[] = [];
{
  const shapes: [string, CartFilters][] = [
    ['all', {}],
    ['store', { gln: '0' }],
    ['between', { created_after: ANY_INSTANT, created_before: ANY_INSTANT }],
    ['after', { created_after: ANY_INSTANT }],
    ['before', { created_before: ANY_INSTANT }],
  ];
  const calls = (fn: string, p: Params, withCaller: boolean) => {
    const args = p.values.map((_, i) => `$${i + 1}`).join(', ');
    // With the caller (migration 0022): the caller's id first, then the same values.
    const asArgs = ['$1', ...p.values.map((_, i) => `$${i + 2}`)].join(', ');
    // With the caller as one text (migration 0028): the figures in its JSON, a series after it.
    const answer = fn.startsWith('series_') ? `"${CALLER_JSON}:series"` : CALLER_JSON;
    return [
      `select * from ${fn}(${args})`,
      withCaller ? `select ${fn}_json(${asArgs}) as ${answer}` : undefined,
    ];
  };
  const fix = (fn: string, text: string, p: Params, returns: string) => {
    HOT.add(text, p, ...calls(fn, p, true));
    POOLED_STATS.push({ fn, text, params: p.values.length, returns });
  };
  // A customer's read: `<fn>_as` (staff's) answers it behind a pooler, for a caller the
  // database says is a customer; its own function runs where the caller is already known.
  const fixOwn = (fn: string, text: string, p: Params, returns: string, staff: Params) => {
    const expected = [ANY_CUSTOMER.id, ...staff.values];
    if (p.values.length !== expected.length || p.values.some((v, i) => v !== expected[i])) {
      throw new Error(`${fn}: a customer's values must be the owner's id, then staff's`);
    }
    HOT.add(text, p, ...calls(fn, p, false));
    POOLED_OWN_STATS.push({ fn, text, params: p.values.length, returns });
  };
  for (const [label, shape] of shapes) {
    const staff = readCartFilter(ANY_STAFF, shape, 0);
    const own = readCartFilter(ANY_CUSTOMER, shape, 0);
    const statsReturns = 'total_quantity float8, total_items float8';
    let p = new Params();
    fix(`stats_${label}`, statsText(staff, p), p, statsReturns);
    let o = new Params();
    fixOwn(`stats_own_${label}`, statsText(own, o), o, statsReturns, p);
    for (const interval of ['D', 'W', 'M'] as const) {
      for (const aggregate of ['carts', 'items'] as const) {
        const query = { ...shape, interval, aggregate };
        const suffix = `${label}_${interval.toLowerCase()}_${aggregate}`;
        p = new Params();
        fix(`series_${suffix}`, seriesText(staff, query, p).text, p, 'series text');
        o = new Params();
        const text = seriesText(own, query, o).text;
        fixOwn(`series_own_${suffix}`, text, o, 'series text', p);
      }
    }
  }
}
