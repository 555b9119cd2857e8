import type { Database } from '../db/client.js';
import { statement } from '../db/statement.js';
import { dateTimeQuery, isTrue } from '../http/query.js';
import type { ControlCounts, ControlStats, ControlStatsQuery } from './schemas.js';

/**
 * Controls of a period by outcome and kind, per store, from the rollups
 * (drizzle/0020_control_days.sql), with the control list's period: created after `$2`, before
 * `$3` (either null: open), in store `$1` (null: all). As the cart figures read them
 * (src/carts/rollups.ts): the whole UTC days of the period from `control_days`, one row per
 * store, day and kind; the partial first day (after `$2`, before the next midnight or `$3`)
 * and the partial last day (from the midnight of `$3`'s day, never before the first whole
 * day, up to `$3`) from `control_outcomes`, one row per control, which keeps rejected
 * controls too. The three parts are disjoint whatever the bounds (both on one day, or `$3`
 * before `$2`: the edges are empty where they would overlap). LEAST and GREATEST skip nulls.
 */
const CONTROL_STATS = statement(`select k.store_id as store, k.is_random as "isRandom",
    sum(k.created)::int as created, sum(k.verified)::int as verified,
    sum(k.rejected)::int as rejected
  from (
    select r.store_id, r.is_random, r.created, r.verified, r.rejected from control_days r
    where r.store_id = coalesce($1::int, r.store_id)
      and r.day >= coalesce(($2::timestamptz at time zone 'UTC')::date + 1, '-infinity'::date)
      and r.day < coalesce(($3::timestamptz at time zone 'UTC')::date, 'infinity'::date)
    union all
    select o.store_id, o.is_random, 1, (o.outcome = 'verified')::int,
      (o.outcome = 'rejected')::int
    from control_outcomes o
    where o.store_id = coalesce($1::int, o.store_id)
      and o.created > $2::timestamptz
      and o.created < least(
        (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp at time zone 'UTC',
        $3::timestamptz)
    union all
    select o.store_id, o.is_random, 1, (o.outcome = 'verified')::int,
      (o.outcome = 'rejected')::int
    from control_outcomes o
    where o.store_id = coalesce($1::int, o.store_id)
      and o.created >= greatest(
        ($3::timestamptz at time zone 'UTC')::date::timestamp at time zone 'UTC',
        (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp at time zone 'UTC')
      and o.created < $3::timestamptz
  ) k
  group by k.store_id, k.is_random
  order by k.store_id, k.is_random`);

interface Row {
  store: number;
  isRandom: boolean;
  created: number;
  verified: number;
  rejected: number;
}

const zero = (): ControlCounts => ({ created: 0, verified: 0, rejected: 0, pending: 0 });

function add(to: ControlCounts, row: Row): void {
  to.created += row.created;
  to.verified += row.verified;
  to.rejected += row.rejected;
  to.pending += row.created - row.verified - row.rejected;
}

/** GET controls/stats/: totals by kind and outcome, and per store with `by_store`. */
export async function controlStats(
  database: Database,
  query: ControlStatsQuery,
): Promise<ControlStats> {
  const after = dateTimeQuery('created_after', query.created_after) ?? null;
  const before = dateTimeQuery('created_before', query.created_before) ?? null;
  const store = query.store === undefined ? null : Number(query.store);
  const rows = await database.run<Row>(CONTROL_STATS, [store, after, before]);
  const totals = { random: zero(), chosen: zero() };
  const byStore = new Map<
    number,
    { store: number; random: ControlCounts; chosen: ControlCounts }
  >();
  for (const row of rows) {
    const kind = row.isRandom ? 'random' : 'chosen';
    add(totals[kind], row);
    let figures = byStore.get(row.store);
    if (!figures) {
      figures = { store: row.store, random: zero(), chosen: zero() };
      byStore.set(row.store, figures);
    }
    add(figures[kind], row);
  }
  return {
    ...totals,
    stores: isTrue(query.by_store) ? [...byStore.values()] : null,
  };
}
