import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  carts,
  checkouts,
  controlCarts,
  controls,
  items,
  loginFailures,
  shoppingLists,
} from '../../src/db/schema.js';
import { statement } from '../../src/db/statement.js';
import { describeRetention, RETENTION_LOCK, runRetention } from '../../src/retention/logic.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';
import { cartWith, checkedOutCart, createStore, loginStaff } from '../helpers/fixtures.js';
import { rollupsAndFresh } from './shop-data.js';

/**
 * Retention removes carts created before whole UTC days, with their lines, checkout records
 * and control links; the days kept answer exactly as before.
 */
const GLN = '4000000000103';
let ctx: TestContext;
let anna: Session;
let admin: Session;
let staff: Session;
let storeId: number;

beforeAll(async () => {
  ctx = await startTestApp();
  storeId = await createStore(ctx, GLN, { activePeriodSeconds: 3600 });
  anna = await ctx.login('anna');
  admin = await ctx.loginAs('carla', 'admin');
  staff = await loginStaff(ctx);
});
afterAll(() => ctx?.close());

const NOW = '2026-03-20T10:00:00Z';
// 30 days kept before 2026-03-20: carts created before 2026-02-18T00:00Z go.
const CUTOFF = '2026-02-18T00:00:00.000Z';

async function staffFigures(query: string) {
  const get = async (path: string) => {
    const sep = path.includes('?') ? '&' : '?';
    const answer = await ctx.request('GET', `/api/v1/${path}${query ? sep + query : ''}`, {
      token: staff.token,
    });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  return {
    stats: await get('carts/stats/'),
    daily: await get('carts/time-series/'),
    items: await get('carts/time-series/?aggregate=items&interval=W'),
    count: (await get('carts/')).count,
  };
}

/** Moves the clock; tokens are checked against it, so the sessions log in again. */
async function at(iso: string): Promise<void> {
  ctx.clock.set(iso);
  anna = await ctx.login('anna');
  admin = await ctx.loginAs('carla', 'admin');
  staff = await loginStaff(ctx);
}

describe('retention', () => {
  it('removes old carts in batches with their rows; the period kept answers as before', {
    timeout: 60_000,
  }, async () => {
    const old: number[] = [];
    // Old carts, on both sides of the cutoff's day and over several days.
    for (const day of ['2026-01-05T08:00:00Z', '2026-02-01T12:00:00Z', '2026-02-17T23:59:59Z']) {
      await at(day);
      old.push(
        await checkedOutCart(ctx, anna, { store: GLN }, [
          ['P-1', 2],
          ['P-2', 3],
        ]),
      );
      old.push(await checkedOutCart(ctx, anna, { store: null }));
    }
    // An old control of old carts (an active one and the checked-out one of its time).
    await at('2026-02-01T13:00:00Z');
    const active = await cartWith(ctx, anna, { store: GLN }, [['P-9', 1]]);
    old.push(active); // abandoned: never checked out, no activity since
    const control = await ctx.request('POST', '/api/v1/controls/', {
      token: admin.token,
      body: { user: anna.userId, store: storeId, status: 'verified' },
    });
    expect(control.status, control.text).toBe(201);
    // An old cart whose order may have reached the ERP stays; so does a list pointing at a cart.
    const frozen = await cartWith(ctx, anna, { store: GLN });
    await ctx.database.db.update(carts).set({ checkoutFrozen: true }).where(eq(carts.id, frozen));
    const list = await ctx.request('POST', '/api/v1/shopping-lists/', {
      token: anna.token,
      body: { name: 'old list' },
    });
    expect(list.status).toBe(201);
    await ctx.database.db.update(shoppingLists).set({ cartId: old[0] });

    // Kept: from the cutoff's midnight on, and an old-created warehouse cart still in use.
    await at('2026-02-10T09:00:00Z');
    const stillUsed = await cartWith(ctx, anna, { store: null });
    const kept: number[] = [frozen, stillUsed];
    for (const day of ['2026-02-18T00:00:00Z', '2026-03-01T10:00:00Z', '2026-03-20T09:00:00Z']) {
      await at(day);
      kept.push(await checkedOutCart(ctx, anna, { store: GLN }, [['P-1', 4]]));
      kept.push(await cartWith(ctx, anna, { store: GLN }, [['P-3', 1]]));
    }
    // A staff action of the period kept: its audit event stays; the old control's goes.
    await at('2026-03-01T11:00:00Z');
    const patched = await ctx.request('PATCH', `/api/v1/stores/${GLN}/`, {
      token: staff.token,
      body: { active_period: '02:00:00' },
    });
    expect(patched.status).toBe(200);
    await ctx.request('PATCH', `/api/v1/stores/${GLN}/`, {
      token: staff.token,
      body: { active_period: '01:00:00' },
    });
    await at('2026-03-20T09:30:00Z');
    await ctx.request('POST', '/api/v1/items/', {
      token: anna.token,
      body: { cart: stillUsed, part_number: 'P-7', quantity: 1 },
    });

    // Wrong passwords: an old window of failed-login counts (goes) and a current one (stays).
    for (const [day, username] of [
      ['2026-02-01T14:00:00Z', 'bruno'],
      ['2026-03-20T09:40:00Z', 'anna'],
    ]) {
      ctx.clock.set(day);
      const wrong = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
        body: { username, password: 'not-the-password' },
      });
      expect(wrong.status).toBe(400);
    }

    await at(NOW);
    const period = 'created_after=2026-02-17T23:59:59.999999Z';
    // What goes with the old carts, counted before they go.
    const alongside = async (table: typeof items | typeof checkouts | typeof controlCarts) =>
      (await ctx.database.db.select().from(table).where(inArray(table.cartId, old))).length;
    const lines = await alongside(items);
    const checkoutRecords = await alongside(checkouts);
    const controlLinks = await alongside(controlCarts);
    const failures = await ctx.database.db.select().from(loginFailures);
    const oldFailures = failures.filter((f) => f.windowStart < '2026-02-18').length;
    expect(oldFailures).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(oldFailures);
    const keptBefore = await staffFigures(period);
    const storeBefore = await staffFigures(`${period}&gln=${GLN}`);

    const result = await runRetention(ctx.database, {
      days: 30,
      auditDays: 30,
      nowMicros: ctx.clock.nowMicros(),
      batchSize: 2,
    });
    expect(lines).toBeGreaterThan(old.length);
    expect(checkoutRecords).toBe(6);
    expect(controlLinks).toBeGreaterThan(0);
    expect(result).toMatchObject({
      cutoff: CUTOFF,
      auditCutoff: CUTOFF,
      carts: old.length,
      lines,
      checkouts: checkoutRecords,
      controlLinks,
      controls: 1,
      loginFailures: oldFailures,
      auditEvents: 1,
      busy: false,
    });
    expect(result.rollupRows).toBeGreaterThan(0);
    expect(result.batches).toBeGreaterThan(4);
    // The summary names every kind of row removed, with its count.
    expect(describeRetention(result)).toBe(
      `removed ${old.length} carts with ${lines} lines, 6 checkout records and ${controlLinks} control links, 1 controls, 0 random-control draws, 0 restore codes, ${oldFailures} failed-login counts and ${result.rollupRows} emptied statistics rows from before ${CUTOFF}; 1 audit events from before ${CUTOFF} (${result.batches} batches)`,
    );
    const failuresLeft = await ctx.database.db.select().from(loginFailures);
    expect(failuresLeft.length).toBe(failures.length - oldFailures);
    expect(failuresLeft.every((f) => f.windowStart >= '2026-02-18')).toBe(true);

    const left = (await ctx.database.db.select({ id: carts.id }).from(carts)).map((c) => c.id);
    expect(left.sort((a, b) => a - b)).toEqual(kept.sort((a, b) => a - b));
    for (const table of [items, checkouts, controlCarts] as const) {
      const rows = await ctx.database.db
        .select({ cart: table.cartId })
        .from(table)
        .where(inArray(table.cartId, old));
      expect(rows).toEqual([]);
    }
    expect(await ctx.database.db.select().from(controls)).toEqual([]);
    // The audit trail keeps the period's events only (the old control's creation is gone).
    const trail = await ctx.database.db.select().from(auditEvents);
    expect(trail.map((e) => e.kind)).toEqual(['store.updated', 'store.updated']);
    expect(trail.every((e) => e.created >= '2026-02-18')).toBe(true);
    const [kept_list] = await ctx.database.db.select().from(shoppingLists);
    expect(kept_list.cartId).toBeNull();

    // The rollups equal a fresh aggregate; no emptied row of the days gone is left.
    const { stored, fresh } = await rollupsAndFresh(ctx.database);
    expect(stored).toEqual(fresh);
    const [{ n }] = await ctx.database.run<{ n: number }>(
      statement(
        // (the all-time rows, period -infinity, are live whatever their figures)
        `select ((select count(*) from cart_rollups where carts = 0 and day < '2026-02-18')
          + (select count(*) from cart_grains
              where carts = 0 and grain = 'M' and period < '2026-02-01')
          + (select count(*) from cart_grains_all where carts = 0
              and (grain = 'D' and period < '2026-02-18' or grain = 'M' and period < '2026-02-01'))
          + (select count(*) from cart_days where carts = 0 and day < '2026-02-18')
          + (select count(*) from cart_hours where carts = 0 and hour < '2026-02-18'))::int
          as n`,
      ),
      [],
    );
    expect(n).toBe(0);
    expect(await staffFigures(period)).toEqual(keptBefore);
    expect(await staffFigures(`${period}&gln=${GLN}`)).toEqual(storeBefore);
    // Unbounded, the figures are those of what is left.
    expect((await staffFigures('')).count).toBe(kept.length);

    // Nothing more to do: a second run removes nothing.
    const again = await runRetention(ctx.database, {
      days: 30,
      auditDays: 30,
      nowMicros: ctx.clock.nowMicros(),
    });
    expect(again).toMatchObject({ carts: 0, controls: 0, auditEvents: 0, busy: false });
  });

  it("keeps audit events for their own period, whatever the carts'", async () => {
    // A staff action and a cart of 2026-01-10, 69 days before NOW.
    await at('2026-01-10T10:00:00Z');
    const patched = await ctx.request('PATCH', `/api/v1/stores/${GLN}/`, {
      token: staff.token,
      body: { active_period: '03:00:00' },
    });
    expect(patched.status).toBe(200);
    await checkedOutCart(ctx, anna, { store: GLN });
    const eventsOf = async () =>
      (await ctx.database.db.select().from(auditEvents)).filter((e) =>
        e.created.startsWith('2026-01-10'),
      ).length;
    expect(await eventsOf()).toBe(1);
    await at(NOW);

    // The carts go after 30 days; the trail stays for its 730 (and for ever with 0).
    const twoYears = await runRetention(ctx.database, {
      days: 30,
      auditDays: 730,
      nowMicros: ctx.clock.nowMicros(),
    });
    expect(twoYears).toMatchObject({ carts: 1, auditEvents: 0, busy: false });
    expect(twoYears.auditCutoff).toBe('2024-03-20T00:00:00.000Z');
    const forEver = await runRetention(ctx.database, {
      days: 30,
      auditDays: 0,
      nowMicros: ctx.clock.nowMicros(),
    });
    expect(forEver).toMatchObject({ auditCutoff: null, auditEvents: 0 });
    expect(describeRetention(forEver)).toMatch(/; no audit events \(the trail is kept whole\)/);
    expect(await eventsOf()).toBe(1);
    // Under the floor the run refuses before it removes anything.
    await expect(
      runRetention(ctx.database, { days: 30, auditDays: 29, nowMicros: ctx.clock.nowMicros() }),
    ).rejects.toThrow(/at least 30 days/);

    // Past its own period the event goes.
    const sixty = await runRetention(ctx.database, {
      days: 30,
      auditDays: 60,
      nowMicros: ctx.clock.nowMicros(),
    });
    expect(sixty).toMatchObject({ auditCutoff: '2026-01-19T00:00:00.000Z', auditEvents: 1 });
    expect(await eventsOf()).toBe(0);
  });

  it.skipIf(!onPostgres)('leaves the work to a run holding the lock (PostgreSQL)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = ctx.database.transaction(async (run) => {
      await run(statement('select pg_advisory_xact_lock($1)'), [RETENTION_LOCK]);
      locked();
      await held;
    });
    await isLocked;
    try {
      const result = await runRetention(ctx.database, {
        days: 1,
        auditDays: 0,
        nowMicros: ctx.clock.nowMicros(),
      });
      expect(result).toMatchObject({ busy: true, carts: 0, batches: 0 });
    } finally {
      release();
      await holder;
    }
  });
});
