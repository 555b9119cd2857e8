import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { seedDemo } from '../../src/admin/commands.js';
import { DEMO_HISTORY_DAYS, seedDemoCarts, seededRandom } from '../../src/admin/demo-carts.js';
import { statement } from '../../src/db/statement.js';
import { startTestApp, type TestContext } from '../helpers/app.js';

/**
 * The demo a newcomer opens first (`npm start`, the console as carla) has a store chain's
 * last 90 days: carts in every store, checkouts, controls, and carts active right now.
 */
let ctx: TestContext;
let seeded: number;

const count = async (text: string, values: unknown[] = []) =>
  Number((await ctx.database.run<{ n: string }>(statement(text), values))[0].n);

beforeAll(async () => {
  ctx = await startTestApp();
  const now = ctx.clock.nowMicros();
  await seedDemo(ctx.database.db, now);
  const started = performance.now();
  ({ carts: seeded } = await seedDemoCarts(ctx.database.db, now));
  console.log(`demo carts: ${seeded} seeded in ${Math.round(performance.now() - started)} ms`);
});
afterAll(() => ctx?.close());

describe('demo carts', () => {
  it('spread over 90 days and the three stores, none in the future', async () => {
    expect(seeded).toBeGreaterThan(1000);
    expect(await count('select count(*) as n from carts')).toBe(seeded);
    const now = new Date(ctx.clock.nowMicros() / 1000);
    const rows = await ctx.database.run<{ gln: string | null; first: string; last: string }>(
      statement(`select s.gln, min(c.created)::text as first, max(c.last_activity)::text as last
        from carts c left join stores s on s.id = c.store_id group by s.gln`),
      [],
    );
    expect(rows.map((r) => r.gln).sort()).toEqual([...DEMO_STORE_GLNS, null].sort());
    for (const row of rows) {
      const days = (now.getTime() - Date.parse(row.first)) / 86_400_000;
      expect(days).toBeGreaterThan(DEMO_HISTORY_DAYS - 3);
      expect(days).toBeLessThanOrEqual(DEMO_HISTORY_DAYS + 1);
      expect(Date.parse(row.last)).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('keeps the counters, rollups and checkout records exact', async () => {
    expect(
      await count(`select count(*) as n from carts c where items_count <> (select count(*)
        from items i where i.cart_id = c.id) or total_quantity <> (select coalesce(sum(quantity), 0)
        from items i where i.cart_id = c.id)`),
    ).toBe(0);
    expect(
      await count(`select count(*) as n from (select store_id, (created at time zone 'UTC')::date as day,
        checked_out, checkout_availability_error, count(*)::int as carts,
        sum(items_count)::bigint as items, sum(total_quantity)::bigint as quantity from carts
        group by 1, 2, 3, 4) f full join (select * from cart_rollups where carts <> 0) r
        on r.store_id is not distinct from f.store_id and r.day = f.day
          and r.checked_out = f.checked_out
          and r.checkout_availability_error = f.checkout_availability_error
        where r.carts is distinct from f.carts or r.items_count is distinct from f.items
          or r.total_quantity is distinct from f.quantity`),
    ).toBe(0);
    expect(
      await count(`select count(*) as n from carts c
        where c.checked_out <> exists (select 1 from checkouts k where k.cart_id = c.id)`),
    ).toBe(0);
  });

  it('shows staff a store day: active carts now, a pending control, checkouts and a chart', async () => {
    const carla = await ctx.loginAs('carla', 'admin');
    const active = await ctx.request('GET', '/api/v1/carts/?active=True', { token: carla.token });
    expect(active.status).toBe(200);
    expect(active.body.count).toBeGreaterThanOrEqual(DEMO_STORE_GLNS.length);
    const stores = new Set(active.body.results.map((c: { store: { gln: string } }) => c.store.gln));
    expect(stores.size).toBe(DEMO_STORE_GLNS.length);

    const done = await ctx.request('GET', '/api/v1/carts/?checkout=True&page_size=1', {
      token: carla.token,
    });
    expect(done.body.count).toBeGreaterThan(seeded / 2);
    expect(done.body.results[0].checkout.order_number).toMatch(/^SO-\d+$/);

    const series = await ctx.request('GET', '/api/v1/carts/time-series/?interval=D', {
      token: carla.token,
    });
    expect(series.body.length).toBeGreaterThan(60);

    const controls = await ctx.request('GET', '/api/v1/controls/?page_size=100', {
      token: carla.token,
    });
    expect(controls.status).toBe(200);
    const statuses = controls.body.results.map((c: { status: string }) => c.status);
    expect(statuses).toContain('pending');
    expect(statuses).toContain('verified');
  });

  it('adds nothing to a database that has carts', async () => {
    const before = await count('select count(*) as n from carts');
    const users = await count('select count(*) as n from users');
    expect(await seedDemoCarts(ctx.database.db, ctx.clock.nowMicros())).toEqual({ carts: 0 });
    expect(await count('select count(*) as n from carts')).toBe(before);
    expect(await count('select count(*) as n from users')).toBe(users);
  });

  it('draws the same sequence on every machine', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(new Set(first).size).toBe(5);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
