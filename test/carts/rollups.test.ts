import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.js';
import { iso, statement } from '../../src/db/statement.js';
import { startTestApp, type TestContext } from '../helpers/app.js';
import {
  addItem,
  addSimUser,
  cartWith,
  checkout,
  createCart,
  createStore,
  loginStaff,
} from '../helpers/fixtures.js';

/**
 * Staff stats, time series and list counts are answered from `cart_rollups` (kept by a
 * trigger) plus the partial first and last days read from `carts`. Each answer here is
 * checked against the same figure computed in the test from the carts themselves.
 */
const GLN_A = '4000000000011';
const GLN_B = '4000000000028';

interface Cart {
  gln: string | null;
  created: string;
  checked_out: boolean;
  error: boolean;
  items_count: number;
  total_quantity: number;
}

let ctx: TestContext;

async function allCarts(): Promise<Cart[]> {
  return ctx.database.run<Cart>(
    statement(`select s.gln, ${iso('c.created')} as created,
      c.checked_out, c.checkout_availability_error as error, c.items_count, c.total_quantity
    from carts c left join stores s on s.id = c.store_id`),
    [],
  );
}

/**
 * Every grain as stored, and as a fresh aggregate of `carts`: equal when the trigger is
 * exact. Per store: days (`cart_rollups`, `cart_counts`), months and all time
 * (`cart_grains`); over all stores, its shards summed: days, months and all time
 * (`cart_grains_all`), and days and hours whatever the flags (`cart_days`, `cart_hours`).
 * Rows whose figures are all zero are left out (a row stays when its carts go).
 */
async function rollupsAgainstCarts() {
  const read = async (text: string) =>
    (await ctx.database.run(statement(text), [])).map((r) => JSON.stringify(r)).sort();
  const fresh = `select store_id, (created at time zone 'UTC')::date::text as day,
      checked_out, checkout_availability_error, count(*)::int as carts,
      sum(items_count)::int as items_count, sum(total_quantity)::int as total_quantity
      from carts group by 1, 2, 3, 4`;
  const grains = `from carts cross join lateral (values
      ('D', (created at time zone 'UTC')::date),
      ('M', date_trunc('month', created at time zone 'UTC')::date),
      ('T', '-infinity'::date)) x(grain, period)`;
  const nonZero = 'where carts <> 0 or items_count <> 0 or total_quantity <> 0';
  const stored = await read(`select 'rollups' as t, store_id, day::text, checked_out,
      checkout_availability_error, carts, items_count::int, total_quantity::int
      from cart_rollups where carts <> 0
    union all select 'counts', store_id, day::text, checked_out, checkout_availability_error,
      carts, null, null from cart_counts where carts <> 0
    union all select 'store ' || grain, store_id, period::text, checked_out,
      checkout_availability_error, carts::int, items_count::int, total_quantity::int
      from cart_grains ${nonZero}
    union all select 'all ' || grain || ' ' || warehouse, null, period::text, checked_out,
      checkout_availability_error, sum(carts)::int, sum(items_count)::int,
      sum(total_quantity)::int from cart_grains_all
      group by grain, warehouse, period, checked_out, checkout_availability_error
      having sum(carts) <> 0 or sum(items_count) <> 0 or sum(total_quantity) <> 0
    union all select 'days', null, day::text, null, null, sum(carts)::int,
      sum(items_count)::int, sum(total_quantity)::int from cart_days group by day
      having sum(carts) <> 0 or sum(items_count) <> 0 or sum(total_quantity) <> 0
    union all select 'hours', null, hour::text, null, null, sum(carts)::int,
      sum(items_count)::int, sum(total_quantity)::int from cart_hours group by hour
      having sum(carts) <> 0 or sum(items_count) <> 0 or sum(total_quantity) <> 0`);
  const expected = await read(`select 'rollups' as t, * from (${fresh}) f
    union all select 'counts', store_id, day, checked_out, checkout_availability_error, carts,
      null, null from (${fresh}) f
    union all select 'store ' || grain, store_id, period::text, checked_out,
      checkout_availability_error, count(*)::int, sum(items_count)::int,
      sum(total_quantity)::int ${grains} where grain <> 'D'
      group by grain, store_id, period, checked_out, checkout_availability_error
    union all select 'all ' || grain || ' ' || (store_id is null), null, period::text,
      checked_out, checkout_availability_error, count(*)::int, sum(items_count)::int,
      sum(total_quantity)::int ${grains}
      group by grain, store_id is null, period, checked_out, checkout_availability_error
    union all select 'days', null, (created at time zone 'UTC')::date::text, null, null,
      count(*)::int, sum(items_count)::int, sum(total_quantity)::int from carts group by 3
    union all select 'hours', null, date_trunc('hour', created at time zone 'UTC')::text, null,
      null, count(*)::int, sum(items_count)::int, sum(total_quantity)::int from carts group by 3`);
  return { stored, fresh: expected };
}

/** Microsecond instants of the contract's form, compared as text (same length, same zone). */
function norm(value: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const m = /^(.*?)(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(date)!;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  return `${new Date(ms).toISOString().slice(0, 19)}.${(m[2] ?? '').padEnd(6, '0')}Z`;
}

function keep(cart: Cart, query: URLSearchParams): boolean {
  const after = query.get('created_after');
  const before = query.get('created_before');
  const bool = (name: string) => (query.has(name) ? query.get(name) === 'True' : undefined);
  if (after && !(cart.created > norm(after))) return false;
  if (before && !(cart.created < norm(before))) return false;
  if (query.has('gln') && cart.gln !== query.get('gln')) return false;
  if (bool('exclude_warehouse') && cart.gln === null) return false;
  const checkedOut = bool('checkout');
  if (checkedOut !== undefined && cart.checked_out !== checkedOut) return false;
  const error = bool('checkout_availability_error');
  if (error !== undefined && cart.error !== error) return false;
  return true;
}

/** The UTC Monday of the day's week. */
function monday(created: string): string {
  const day = new Date(`${created.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return `${day.toISOString().slice(0, 10)}T00:00:00.000000Z`;
}

function series(carts: Cart[], unit: 'D' | 'W' | 'M', aggregate: 'carts' | 'items') {
  const buckets = new Map<string, number>();
  for (const cart of carts) {
    const bucket =
      unit === 'D'
        ? `${cart.created.slice(0, 10)}T00:00:00.000000Z`
        : unit === 'W'
          ? monday(cart.created)
          : `${cart.created.slice(0, 7)}-01T00:00:00.000000Z`;
    buckets.set(
      bucket,
      (buckets.get(bucket) ?? 0) + (aggregate === 'items' ? cart.items_count : 1),
    );
  }
  return [...buckets.entries()].sort().map(([interval, total]) => ({ interval, total }));
}

const QUERIES = [
  '',
  `gln=${GLN_A}`,
  `gln=${GLN_B}&checkout=True`,
  'gln=4099999999999',
  'checkout=False',
  'exclude_warehouse=True',
  'checkout_availability_error=True',
  'checkout_availability_error=False&checkout=False',
  'created_after=2026-03-01T23:59:59.999999Z',
  'created_after=2026-03-02',
  'created_after=2026-03-02T00:00:00.000001Z',
  'created_before=2026-03-02T00:00:00Z',
  'created_before=2026-03-02T00:00:00.000001Z',
  'created_after=2026-03-02T06:00:00Z&created_before=2026-03-02T18:00:00Z',
  'created_after=2026-03-01T12:00:00Z&created_before=2026-03-03T12:00:00Z',
  'created_after=2026-03-03T12:00:00Z&created_before=2026-03-01T12:00:00Z',
  'created_after=2026-03-02T01:00:00%2B02:00&created_before=2026-04-16',
  `created_after=2026-02-27&created_before=2026-04-15T10:00:00.000001Z&gln=${GLN_A}&checkout=True`,
  'created_before=2026-03-03T08:00:00Z&exclude_warehouse=True&checkout=False',
  // Whole months from the month grain, the days at the edges from the day grain.
  'created_after=2026-02-28T09:00:00Z',
  'created_before=2026-04-15T12:00:00Z',
  'created_after=2026-02-27T12:00:00Z&created_before=2026-05-01',
  `created_after=2026-01-31T23:00:00Z&created_before=2026-04-01&gln=${GLN_A}`,
  'created_after=2026-02-28&created_before=2026-04-30T23:59:59.999999Z&checkout=True',
  'created_after=2026-01-01&created_before=2027-01-01&exclude_warehouse=True',
  // Over all stores and flags: whole hours from the hour grain, partial hours from the carts.
  'created_after=2026-03-02T12:15:00Z&created_before=2026-03-02T12:45:00Z',
  'created_after=2026-03-02T12:00:00Z&created_before=2026-03-02T12:30:00Z',
  'created_after=2026-03-02T11:59:59.999999Z&created_before=2026-03-02T12:30:00.000001Z',
  'created_after=2026-03-02T12:30:00Z&created_before=2026-03-02T13:00:00Z',
  'created_after=2026-03-02T10:30:00Z&created_before=2026-03-02T12:29:59Z',
  'created_after=2026-03-02T12:15:00Z&created_before=2026-03-03T08:30:00Z',
  'created_after=2026-03-01T23:30:00Z&created_before=2026-04-15T10:30:00Z',
  'created_after=2026-02-28T10:30:00Z&created_before=2026-03-03T08:00:00Z',
  'created_after=2026-03-02T12:30:00Z',
  'created_before=2026-03-02T12:30:00Z',
  'created_before=2026-03-03T08:59:59.999999Z',
];

describe('staff figures from the rollups', () => {
  beforeAll(async () => {
    ctx = await startTestApp();
    await createStore(ctx, GLN_A);
    await createStore(ctx, GLN_B);
    addSimUser(ctx, 'gone');
    const instants = [
      '2026-02-28T10:00:00Z',
      '2026-03-01T23:59:59.999999Z',
      '2026-03-02T00:00:00Z',
      '2026-03-02T12:00:00Z',
      '2026-03-02T12:30:00Z',
      '2026-03-03T08:00:00Z',
      '2026-03-03T08:59:59.999999Z',
      '2026-04-15T10:00:00Z',
    ];
    let n = 0;
    for (const instant of instants) {
      // Tokens follow the clock: log in at each instant.
      ctx.clock.set(instant);
      const anna = await ctx.login('anna');
      const bruno = await ctx.login('bruno');
      const gone = await ctx.login('gone');
      for (const [session, store] of [
        [anna, GLN_A],
        [bruno, GLN_B],
        [anna, null],
        [gone, GLN_A],
      ] as const) {
        n += 1;
        const cart = await cartWith(ctx, session, { store }, [
          ['P-1', n],
          ['P-2', 1],
        ]);
        await addItem(ctx, session, cart, 'P-1', 2); // a merge
        if (n % 3 === 0) {
          const line = await addItem(ctx, session, cart, 'P-3', 5);
          const patched = await ctx.request('PATCH', `/api/v1/items/${line.id}/`, {
            token: session.token,
            body: { quantity: 7 },
          });
          expect(patched.status, patched.text).toBe(200);
        }
        if (n % 4 === 0) {
          const line = await addItem(ctx, session, cart, 'P-4', 1);
          const deleted = await ctx.request('DELETE', `/api/v1/items/${line.id}/`, {
            token: session.token,
          });
          expect(deleted.status, deleted.text).toBe(204);
        }
        if (n % 2 === 0) expect((await checkout(ctx, session, cart)).status).toBe(200);
        if (n % 5 === 0 && n % 2 === 1) {
          ctx.sim.inject('orders', { type: 'unavailable' });
          expect((await checkout(ctx, session, cart)).status).toBe(503);
        }
      }
    }
    await createCart(ctx, await ctx.login('bruno'), { store: GLN_A }); // a cart with no lines
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('the stored rollups equal an aggregate of the carts', async () => {
    const { stored, fresh } = await rollupsAgainstCarts();
    expect(stored.length).toBeGreaterThan(10);
    expect(stored).toEqual(fresh);
  });

  it('staff stats, time series and list counts equal the figures of the carts, for every filter', async () => {
    const carts = await allCarts();
    const boss = await loginStaff(ctx);
    for (const query of QUERIES) {
      const params = new URLSearchParams(query);
      const kept = carts.filter((c) => keep(c, params));
      const stats = await ctx.request('GET', `/api/v1/carts/stats/?${query}`, {
        token: boss.token,
      });
      expect(stats.status, `${query}: ${stats.text}`).toBe(200);
      expect(stats.body, query).toEqual({
        total_quantity: kept.reduce((sum, c) => sum + c.total_quantity, 0),
        total_items: kept.reduce((sum, c) => sum + c.items_count, 0),
      });
      const list = await ctx.request('GET', `/api/v1/carts/?page_size=1&${query}`, {
        token: boss.token,
      });
      expect(list.status, `${query}: ${list.text}`).toBe(200);
      expect(list.body.count, query).toBe(kept.length);
      for (const [unit, aggregate] of [
        ['D', 'carts'],
        ['D', 'items'],
        ['W', 'carts'],
        ['W', 'items'],
        ['M', 'carts'],
        ['M', 'items'],
      ] as const) {
        const answer = await ctx.request(
          'GET',
          `/api/v1/carts/time-series/?interval=${unit}&aggregate=${aggregate}&${query}`,
          { token: boss.token },
        );
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body, `${unit} ${aggregate} ${query}`).toEqual(series(kept, unit, aggregate));
      }
    }
  });

  // A deleted user's carts go with them (a cascade): the trigger sees those deletes too.
  it('stay exact when a user and their carts are deleted', async () => {
    const gone = await ctx.login('gone');
    await ctx.database.db.delete(users).where(sql`${users.id} = ${gone.userId}`);
    const { stored, fresh } = await rollupsAgainstCarts();
    expect(stored).toEqual(fresh);
    const carts = await allCarts();
    const boss = await loginStaff(ctx);
    const stats = await ctx.request('GET', '/api/v1/carts/stats/', { token: boss.token });
    expect(stats.body.total_items).toBe(carts.reduce((sum, c) => sum + c.items_count, 0));
  });

  it('stay exact under concurrent adds and checkouts in one store and day', async () => {
    ctx.clock.set('2026-05-05T10:00:00Z');
    const sessions = [await ctx.login('anna'), await ctx.login('bruno')];
    const carts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createCart(ctx, sessions[i % 2], { store: GLN_A })),
    );
    await Promise.all(
      carts.flatMap((cart, i) =>
        Array.from({ length: 5 }, (_, j) =>
          addItem(ctx, sessions[i % 2], cart, `P-${j % 3}`, j + 1),
        ),
      ),
    );
    const answers = await Promise.all(carts.map((cart, i) => checkout(ctx, sessions[i % 2], cart)));
    expect(answers.map((a) => a.status)).toEqual(carts.map(() => 200));
    const { stored, fresh } = await rollupsAgainstCarts();
    expect(stored).toEqual(fresh);
    const boss = await loginStaff(ctx);
    const day = await ctx.request(
      'GET',
      `/api/v1/carts/stats/?gln=${GLN_A}&created_after=2026-05-05&created_before=2026-05-06`,
      { token: boss.token },
    );
    expect(day.body).toEqual({ total_quantity: 10 * 15, total_items: 10 * 3 });
  });

  // Retention deletes old checked-out carts in batches: one statement, many stores and days.
  it('stay exact when carts of many stores and days go in one statement', async () => {
    const deleted = await ctx.database.run<{ id: number }>(
      statement(`delete from carts where id in (select id from carts
        where checked_out and created < '2026-04-01' order by id limit 5) returning id`),
      [],
    );
    expect(deleted.length).toBe(5);
    const { stored, fresh } = await rollupsAgainstCarts();
    expect(stored).toEqual(fresh);
  });

  // Moves between keys of every grain at once: days, months, stores, flags, in one statement.
  it('stay exact when one statement moves carts between days, months, stores and flags', async () => {
    await ctx.database.run(
      statement(`update carts set created = created + interval '20 days',
        store_id = case when store_id is null then (select min(id) from stores) else null end,
        checkout_availability_error = not checkout_availability_error
        where id in (select id from carts order by id limit 6)`),
      [],
    );
    let { stored, fresh } = await rollupsAgainstCarts();
    expect(stored).toEqual(fresh);
    await ctx.database.run(
      statement(`update carts set created = created - interval '20 days',
        checkout_availability_error = not checkout_availability_error
        where id in (select id from carts order by id limit 6)`),
      [],
    );
    ({ stored, fresh } = await rollupsAgainstCarts());
    expect(stored).toEqual(fresh);
  });

  // The all-time rows are shared by every writer: a batch delete across stores beside item
  // adds in those stores neither deadlocks nor loses a change (rows taken in key order).
  it('stay exact, without deadlock, when a batch delete runs beside item adds', async () => {
    ctx.clock.set('2026-05-06T10:00:00Z');
    const sessions = [await ctx.login('anna'), await ctx.login('bruno')];
    const carts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createCart(ctx, sessions[i % 2], { store: i % 2 ? GLN_A : GLN_B }),
      ),
    );
    const batch = () =>
      ctx.database.run(
        statement(`delete from carts where id in (select id from carts
          where created < '2026-05-01' order by id desc limit 2)`),
        [],
      );
    const results = await Promise.allSettled([
      ...carts.flatMap((cart, i) =>
        Array.from({ length: 4 }, (_, j) => addItem(ctx, sessions[i % 2], cart, `P-${j}`, j + 1)),
      ),
      batch(),
      batch(),
    ]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const { stored, fresh } = await rollupsAgainstCarts();
    expect(stored).toEqual(fresh);
  });

  // Today's and this month's figures over all stores are spread over shards (writers in
  // different stores rarely share a row); the fold gathers closed days and months into
  // shard 0 without changing a figure. Carts made at the database's own now, by SQL.
  it('stay exact over shards of the current period, and when closed periods are folded', async () => {
    const shards = async () =>
      (
        await ctx.database.run<{ closed: number; current: number }>(
          statement(`select
            count(*) filter (where shard <> 0 and (grain = 'D'
              and period < (now() at time zone 'UTC')::date or grain = 'M'
              and period < date_trunc('month', now() at time zone 'UTC')::date))::int as closed,
            count(*) filter (where shard <> 0 and grain = 'D'
              and period = (now() at time zone 'UTC')::date)::int as current
            from cart_grains_all`),
          [],
        )
      )[0]!;
    const dayShards = async () =>
      (
        await ctx.database.run<{ closed: number; current: number }>(
          statement(`select
            count(*) filter (where shard <> 0
              and day < (now() at time zone 'UTC')::date)::int as closed,
            count(*) filter (where shard <> 0
              and day = (now() at time zone 'UTC')::date)::int as current
            from cart_days`),
          [],
        )
      )[0]!;
    const hourShards = async () =>
      (
        await ctx.database.run<{ closed: number; current: number }>(
          statement(`select
            count(*) filter (where shard <> 0
              and hour < date_trunc('day', now() at time zone 'UTC'))::int as closed,
            count(*) filter (where shard <> 0
              and hour >= date_trunc('day', now() at time zone 'UTC'))::int as current
            from cart_hours`),
          [],
        )
      )[0]!;
    await ctx.database.run(
      statement(`insert into carts (user_id, organization_id, store_id, customer_order_number,
          created, last_activity, items_count, total_quantity)
        select c.user_id, c.organization_id, c.store_id, 'PO-now-' || g, now(), now(), g, 2 * g
        from (select * from carts order by id limit 1) c, generate_series(1, 6) g`),
      [],
    );
    // A closed day written with shards, as a writer whose transaction began before midnight
    // leaves it; and an update and a delete of today's carts.
    await ctx.database.run(
      statement(`update cart_grains_all set shard = 5 where grain in ('D', 'M')
        and period < '2026-03-02' and shard = 0`),
      [],
    );
    await ctx.database.run(
      statement(`update cart_days set shard = 7 where day < '2026-03-02' and shard = 0`),
      [],
    );
    await ctx.database.run(
      statement(`update cart_hours set shard = 7 where hour < '2026-03-02' and shard = 0`),
      [],
    );
    await ctx.database.run(
      statement(`update carts set items_count = items_count + 1, checked_out = true
        where customer_order_number in ('PO-now-1', 'PO-now-2')`),
      [],
    );
    await ctx.database.run(
      statement(`delete from carts where customer_order_number = 'PO-now-3'`),
      [],
    );
    let { stored, fresh } = await rollupsAgainstCarts();
    expect(stored).toEqual(fresh);
    const before = await shards();
    expect(before.current).toBeGreaterThan(0);
    expect(before.closed).toBeGreaterThan(0);
    const daysBefore = await dayShards();
    expect(daysBefore.current).toBeGreaterThan(0);
    expect(daysBefore.closed).toBeGreaterThan(0);
    const hoursBefore = await hourShards();
    expect(hoursBefore.current).toBeGreaterThan(0);
    expect(hoursBefore.closed).toBeGreaterThan(0);
    // The daily series over all carts sums the days that have shards (today, the closed
    // days not yet folded) and takes the others' one row as it is.
    const reader = await loginStaff(ctx);
    // A staff read folds once per UTC day of the service's clock: spent here, then closed
    // days are left with shards again.
    await ctx.request('GET', '/api/v1/carts/stats/', { token: reader.token });
    await ctx.database.run(
      statement(`update cart_days set shard = 7 where day < '2026-03-02' and shard = 0`),
      [],
    );
    await ctx.database.run(
      statement(`update cart_hours set shard = 7 where hour < '2026-03-02' and shard = 0`),
      [],
    );
    // And a closed day counted partly in shard 0, partly in another shard.
    await ctx.database.run(
      statement(`with day as (select day from cart_days where shard = 0
            and day < (now() at time zone 'UTC')::date order by carts desc limit 1),
          moved as (update cart_days c set carts = carts - 1, items_count = items_count - 1
            from day d where c.day = d.day and c.shard = 0 returning c.day)
        insert into cart_days (day, shard, carts, items_count, total_quantity)
        select day, 9, 1, 1, 0 from moved`),
      [],
    );
    const unfolded = (await dayShards()).closed;
    expect(unfolded).toBeGreaterThan(0);
    const everything = await allCarts();
    // Ranges whose edges fall in sharded hours: closed ones not yet folded, and today's.
    const [{ today }] = await ctx.database.run<{ today: string }>(
      statement(`select to_char(now() at time zone 'UTC', 'YYYY-MM-DD') as today`),
      [],
    );
    const midnight = Date.parse(`${today}T00:00:00Z`);
    const at = (ms: number) => new Date(ms).toISOString();
    for (const query of [
      '',
      'created_after=2026-03-01T12:00:00Z&created_before=2099-01-01T00:00:00Z',
      'created_after=2026-02-28T09:30:00Z&created_before=2026-03-01T23:59:59Z',
      `created_after=${at(midnight - 2_700_000)}&created_before=${at(midnight + 86_399_000)}`,
      `created_after=${at(midnight - 86_400_000)}&created_before=${at(Date.now() + 3_600_000)}`,
    ]) {
      const kept = everything.filter((cart) => keep(cart, new URLSearchParams(query)));
      const stats = await ctx.request('GET', `/api/v1/carts/stats/?${query}`, {
        token: reader.token,
      });
      expect(stats.body, query).toEqual({
        total_quantity: kept.reduce((sum, c) => sum + c.total_quantity, 0),
        total_items: kept.reduce((sum, c) => sum + c.items_count, 0),
      });
      const list = await ctx.request('GET', `/api/v1/carts/?page_size=1&${query}`, {
        token: reader.token,
      });
      expect(list.body.count, query).toBe(kept.length);
      for (const aggregate of ['carts', 'items'] as const) {
        const answer = await ctx.request(
          'GET',
          `/api/v1/carts/time-series/?interval=D&aggregate=${aggregate}&${query}`,
          { token: reader.token },
        );
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body, `${aggregate} ${query}`).toEqual(series(kept, 'D', aggregate));
      }
    }
    expect((await dayShards()).closed).toBe(unfolded);
    expect((await hourShards()).closed).toBeGreaterThan(0);
    // A staff read over all carts folds once per UTC day of the service's clock.
    ctx.clock.set(new Date(Date.now() + 3 * 86_400_000).toISOString());
    const boss = await loginStaff(ctx);
    const stats = await ctx.request('GET', '/api/v1/carts/stats/', { token: boss.token });
    expect(stats.status, stats.text).toBe(200);
    expect((await shards()).closed).toBe(0);
    expect((await dayShards()).closed).toBe(0);
    expect((await hourShards()).closed).toBe(0);
    ({ stored, fresh } = await rollupsAgainstCarts());
    expect(stored).toEqual(fresh);
    const carts = await allCarts();
    expect(stats.body).toEqual({
      total_quantity: carts.reduce((sum, c) => sum + c.total_quantity, 0),
      total_items: carts.reduce((sum, c) => sum + c.items_count, 0),
    });
  });

  // Last: it empties the tables.
  it('are emptied with the carts when an operator truncates them', async () => {
    await ctx.database.run(statement('truncate carts cascade'), []);
    const left = await ctx.database.run<{ n: number }>(
      statement(
        `select (select count(*) from cart_rollups) + (select count(*) from cart_counts)
          + (select count(*) from cart_grains) + (select count(*) from cart_grains_all)
          + (select count(*) from cart_days) + (select count(*) from cart_hours) as n`,
      ),
      [],
    );
    expect(Number(left[0]!.n)).toBe(0);
    const boss = await loginStaff(ctx);
    const series = await ctx.request('GET', '/api/v1/carts/time-series/', { token: boss.token });
    expect(series.text).toBe('[]');
  });
});
