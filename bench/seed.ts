/**
 * Seeds a migrated database to production size with set-based SQL: one INSERT … SELECT per
 * table over generate_series, secondary indexes dropped during the load and re-created after,
 * foreign-key and rollup triggers off during the load (session_replication_role; needs a
 * superuser), the cart rollups, counts and grains built in one statement each, then VACUUM
 * ANALYZE. Everything is a function of the cart id, so the bench can name carts
 * without reading them back: see `cartOf` below.
 */
import pg from 'pg';

export const CUSTOMERS = 2000;
export const ORGANIZATIONS = 500;
/** The shape of the seeded data (BENCH_SCALE carts, BENCH_STORES stores, BENCH_YEARS years). */
export interface Shape {
  scale: number;
  stores: number;
  years: number;
}

/**
 * BENCH_SCALING: shapes separated by commas, each `carts` or `carts@stores x years`
 * (`1000000@500x10`); stores and years default to the run's.
 */
export function parseScaling(text: string, defaults: Omit<Shape, 'scale'>): Shape[] {
  return text.split(',').map((entry) => {
    const m = /^\s*(\d+)(?:@(\d+)x(\d+(?:\.\d+)?))?\s*$/.exec(entry);
    if (!m) throw new Error(`BENCH_SCALING: cannot read "${entry}" (carts[@stores x years])`);
    return {
      scale: Number(m[1]),
      stores: m[2] ? Number(m[2]) : defaults.stores,
      years: m[3] ? Number(m[3]) : defaults.years,
    };
  });
}
/** The staff user's id: after the customers. */
export const STAFF_ID = CUSTOMERS + 1;

export const storeGln = (store: number) => `5${String(store).padStart(12, '0')}`;

/** What the seed makes of cart `i` (1-based), computed the same way as in the SQL. */
export function cartOf(i: number) {
  const state = i % 10; // 0–5 checked out (60 %), 6–9 open
  return {
    id: i,
    userId: 1 + (i % CUSTOMERS),
    open: state >= 6,
    state,
    /** A part number the cart has a line of (k = 1). */
    existingPart: `P-${(i * 7 + 101) % 5000}`,
  };
}

/** The tables the seed loads: their secondary indexes are dropped during the load. */
const LOADED = [
  'organizations',
  'stores',
  'users',
  'memberships',
  'carts',
  'items',
  'checkouts',
  'cart_rollups',
  'cart_counts',
  'cart_grains',
  'cart_grains_all',
  'cart_days',
  'cart_hours',
];

export async function seed(url: string, shape: Shape, log: (line: string) => void) {
  const { scale, stores, years } = shape;
  const days = Math.round(365 * years);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const step = async (label: string, statement: string, params: unknown[] = []) => {
    const started = performance.now();
    const result = await client.query(statement, params);
    log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };
  try {
    await client.query(`set session_replication_role = replica`);
    await client.query(`set maintenance_work_mem = '512MB'`);
    // The migrated schema's own secondary indexes (not those of constraints), re-created as
    // they were after the load.
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
       where i.schemaname = 'public' and i.tablename = any($1) and not exists
         (select 1 from pg_constraint c where c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
      [LOADED],
    );
    for (const { name } of indexes) await client.query(`drop index ${name}`);
    // Carts over the years, in id order; the same expression for items and checkouts.
    const created = `(now() - interval '1 hour' - (${days} * (1 - i::float8 / ${scale})) * interval '1 day')`;
    const org = `(1 + ((u * 7 + (i % (1 + u % 3)) * 13) % ${ORGANIZATIONS}))`;
    await step(
      'organizations',
      `insert into organizations (id, organization_id, code, name, created)
       select o, 'ORG-B' || o, (200000 + o)::text, 'Bench organization ' || o, now()
       from generate_series(1, ${ORGANIZATIONS}) o`,
    );
    await step(
      'stores',
      `insert into stores (id, gln, name, created)
       select s, '5' || lpad(s::text, 12, '0'), 'Bench store ' || s, now()
       from generate_series(1, ${stores}) s`,
    );
    await step(
      'users',
      `insert into users (id, username, email, first_name, is_staff, created)
       select u, 'bench-' || u, 'bench-' || u || '@example.com', 'User ' || u,
              u = ${STAFF_ID}, now()
       from generate_series(1, ${STAFF_ID}) u`,
    );
    await step(
      'memberships',
      `insert into memberships (user_id, organization_id)
       select u, 1 + ((u * 7 + k * 13) % ${ORGANIZATIONS})
       from generate_series(1, ${CUSTOMERS}) u, generate_series(0, u % 3) k`,
    );
    await step(
      'carts',
      `insert into carts (id, user_id, organization_id, store_id, customer_order_number,
                          created, last_activity, items_count, total_quantity, checked_out)
       select i, u, ${org}, 1 + (i * 31) % ${stores}, 'PO-' || i,
              ${created}, ${created} + interval '10 minutes', 3 + i % 5,
              (select sum(1 + (i + k) % 4) from generate_series(1, 3 + i % 5) k),
              i % 10 < 6
       from generate_series(1, ${scale}) i, lateral (select 1 + i % ${CUSTOMERS} as u) x`,
    );
    await step(
      'items',
      `insert into items (cart_id, part_number, quantity, created)
       select i, 'P-' || (i * 7 + k * 101) % 5000, 1 + (i + k) % 4,
              ${created} + k * interval '1 minute'
       from generate_series(1, ${scale}) i, generate_series(1, 3 + i % 5) k`,
    );
    await step(
      'checkouts',
      `insert into checkouts (cart_id, created, order_id, order_number)
       select i, ${created} + interval '10 minutes', 'seed-' || i, 'SO-SEED-' || i
       from generate_series(1, ${scale}) i where i % 10 < 6`,
    );
    // The rollup trigger is off with the other triggers: the rollups in one statement, as the
    // migration builds them.
    await step(
      'cart rollups',
      `insert into cart_rollups (store_id, day, checked_out, checkout_availability_error, carts,
                                 items_count, total_quantity)
       select store_id, (created at time zone 'UTC')::date, checked_out,
              checkout_availability_error, count(*), sum(items_count), sum(total_quantity)
       from carts group by 1, 2, 3, 4`,
    );
    await step(
      'cart counts',
      `insert into cart_counts (store_id, day, checked_out, checkout_availability_error, carts)
       select store_id, day, checked_out, checkout_availability_error, carts from cart_rollups`,
    );
    // The coarser grains (drizzle/0006_rollup_grains.sql builds them the same way).
    await step(
      'cart grains',
      `insert into cart_grains (store_id, grain, period, checked_out, checkout_availability_error,
                                carts, items_count, total_quantity)
       select store_id, x.grain, x.period, checked_out, checkout_availability_error, sum(carts),
              sum(items_count), sum(total_quantity)
       from cart_rollups cross join lateral (values
         ('M', date_trunc('month', day)::date), ('T', '-infinity'::date)) x(grain, period)
       group by 1, 2, 3, 4, 5`,
    );
    await step(
      'cart grains over all stores',
      `insert into cart_grains_all (grain, period, warehouse, checked_out,
                                    checkout_availability_error, shard, carts, items_count,
                                    total_quantity)
       select x.grain, x.period, store_id is null, checked_out, checkout_availability_error,
              case when x.period >= x.current then (id % 32)::smallint else 0::smallint end,
              count(*), sum(items_count), sum(total_quantity)
       from carts cross join lateral (values
         ('D', (created at time zone 'UTC')::date, (now() at time zone 'UTC')::date),
         ('M', date_trunc('month', created at time zone 'UTC')::date,
               date_trunc('month', now() at time zone 'UTC')::date),
         ('T', '-infinity'::date, '-infinity'::date)) x(grain, period, current)
       group by 1, 2, 3, 4, 5, 6`,
    );
    await step(
      'cart days over all stores and flags',
      `insert into cart_days (day, shard, carts, items_count, total_quantity)
       select (created at time zone 'UTC')::date,
              case when (created at time zone 'UTC')::date >= (now() at time zone 'UTC')::date
                then (id % 32)::smallint else 0::smallint end,
              count(*), sum(items_count), sum(total_quantity)
       from carts group by 1, 2`,
    );
    await step(
      'cart hours over all stores and flags',
      `insert into cart_hours (hour, shard, carts, items_count, total_quantity)
       select date_trunc('hour', created at time zone 'UTC'),
              case when (created at time zone 'UTC')::date >= (now() at time zone 'UTC')::date
                then (id % 32)::smallint else 0::smallint end,
              count(*), sum(items_count), sum(total_quantity)
       from carts group by 1, 2`,
    );
    for (const table of ['organizations', 'stores', 'users', 'carts', 'items', 'checkouts']) {
      await client.query(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
      );
    }
    await client.query(`set session_replication_role = origin`);
    const started = performance.now();
    // Two cores: two index builds at a time, each on its own connection.
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    await Promise.all(indexes.map(({ definition }) => pool.query(definition)));
    await pool.end();
    log(`  indexes: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await step('vacuum analyze', 'vacuum analyze');
    // The seed's dirty pages written now, not by a timed checkpoint while the first server of
    // the first scenario (always the service) is measured.
    await step('checkpoint', 'checkpoint');
  } finally {
    await client.end();
  }
}
