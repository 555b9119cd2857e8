import { eq } from 'drizzle-orm';
import fastJson from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { TimeSeriesSchema } from '../../src/carts/schemas.js';
import { carts, checkouts } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import {
  addItem,
  type CartFields,
  cartWith,
  createCartBody,
  createStore,
  organizationsOf,
} from '../helpers/fixtures.js';

const [GLN_A, GLN_B] = DEMO_STORE_GLNS;
let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let annaOrgs: string[];
let brunoOrgs: string[];

beforeAll(async () => {
  ctx = await startTestApp();
  await createStore(ctx, GLN_A, { activePeriodSeconds: 3600 });
  await createStore(ctx, GLN_B, { activePeriodSeconds: 7200 });
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await ctx.loginAs('carla', 'staff');
  annaOrgs = await organizationsOf(ctx, anna.userId);
  brunoOrgs = await organizationsOf(ctx, bruno.userId);
});
afterAll(() => ctx?.close());

const createCart = (session: Session, fields: CartFields = {}) =>
  createCartBody(ctx, session, { store: GLN_A, order_mark: 'mark', ...fields });

const ids = (answer: { body: { results: { id: number }[] } }) =>
  answer.body.results.map((c) => c.id);

async function list(session: Session, query = '') {
  const answer = await ctx.request('GET', `/api/v1/carts/${query}`, { token: session.token });
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

describe('POST carts/', () => {
  it('answers 201 with the creation form', async () => {
    ctx.clock.set('2026-03-02T09:10:00.123456Z');
    const answer = await ctx.request('POST', '/api/v1/carts/', {
      token: anna.token,
      body: {
        store: GLN_A,
        organization: annaOrgs[0],
        customer_order_number: 'PO-77',
        order_mark: 'Site 4',
        reference: 'REF-9',
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(Number),
      created: '2026-03-02T09:10:00.123456Z',
      customer_order_number: 'PO-77',
      order_mark: 'Site 4',
      organization: annaOrgs[0],
      reference: 'REF-9',
      store: GLN_A,
    });
  });

  it('takes the reference from the profile when omitted, and keeps an explicit null', async () => {
    const profile = ctx.sim.data.users.find((u) => u.username === 'anna')!;
    const omitted = await createCart(anna, {});
    const [row] = await ctx.database.db.select().from(carts).where(eq(carts.id, omitted.id));
    expect(row.reference).toBe(profile.reference);
    const explicit = await createCart(anna, { reference: null });
    expect((explicit as { reference?: unknown }).reference).toBeNull();
  });

  it('makes a warehouse cart when store is omitted or null', async () => {
    for (const fields of [{ store: undefined }, { store: null }]) {
      const answer = await ctx.request('POST', '/api/v1/carts/', {
        token: anna.token,
        body: { organization: annaOrgs[0], customer_order_number: 'W', order_mark: '', ...fields },
      });
      expect(answer.status).toBe(201);
      expect(answer.body.store).toBeNull();
    }
  });

  it('refuses an unknown store, a foreign organization and missing fields with 400 per field', async () => {
    const answer = await ctx.request('POST', '/api/v1/carts/', {
      token: anna.token,
      body: {
        store: '0000000000000',
        organization: brunoOrgs[0],
        customer_order_number: 'X',
        order_mark: '',
      },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body).sort()).toEqual(['organization', 'store']);
    const missing = await ctx.request('POST', '/api/v1/carts/', { token: anna.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.organization).toEqual(['This field is required.']);
    expect(missing.body.customer_order_number).toEqual(['This field is required.']);
    const wrongType = await ctx.request('POST', '/api/v1/carts/', {
      token: anna.token,
      body: { organization: 5, customer_order_number: 'X', order_mark: '' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.organization).toEqual(['Not a valid string.']);
    // Nullable fields: one message, not one per branch of the union.
    const nullable = await ctx.request('POST', '/api/v1/carts/', {
      token: anna.token,
      body: {
        store: 5,
        reference: [],
        organization: annaOrgs[0],
        customer_order_number: 'X',
        order_mark: '',
      },
    });
    expect(nullable.status).toBe(400);
    expect(nullable.body).toEqual({
      store: ['Not a valid string.'],
      reference: ['Not a valid string.'],
    });
  });

  it('needs a token', async () => {
    const answer = await ctx.request('POST', '/api/v1/carts/', { body: {} });
    expect(answer.status).toBe(401);
  });
});

describe('GET carts/ and GET carts/{id}/', () => {
  it('lists only the caller’s carts in the list form; staff see all', async () => {
    const mine = await createCart(anna);
    await addItem(ctx, anna, mine.id, 'A-1', 2);
    await addItem(ctx, anna, mine.id, 'B-2', 3);
    const theirs = await createCart(bruno);
    const annaList = await list(anna, '?page_size=100');
    expect(ids(annaList)).toContain(mine.id);
    expect(ids(annaList)).not.toContain(theirs.id);
    const cart = annaList.body.results.find((c: { id: number }) => c.id === mine.id);
    expect(Object.keys(cart).sort()).toEqual(
      [
        'checkout',
        'checkout_availability_error',
        'checkout_availability_error_at',
        'controls',
        'created',
        'customer_order_number',
        'has_unlimited_credit',
        'id',
        'items',
        'items_count',
        'last_activity',
        'order_mark',
        'organization',
        'reference',
        'store',
        'total_quantity',
        'user',
      ].sort(),
    );
    expect(cart.items_count).toBe(2);
    expect(cart.total_quantity).toBe(5);
    expect(cart.items.map((i: { part_number: string }) => i.part_number)).toEqual(['A-1', 'B-2']);
    expect(cart.store).toEqual({ created: expect.any(String), gln: GLN_A, id: expect.any(Number) });
    expect(cart.user).toEqual({
      email: 'anna@example.com',
      first_name: expect.any(String),
      id: anna.userId,
      last_name: expect.any(String),
      username: 'anna',
    });
    expect(Object.keys(cart.organization).sort()).toEqual([
      'code',
      'created',
      'id',
      'name',
      'organization_id',
      'parent_code',
    ]);
    expect(cart.checkout).toBeNull();
    expect(cart.controls).toEqual([]);
    expect(cart.checkout_availability_error).toBe(false);
    const staffList = await list(staff, '?page_size=100');
    expect(ids(staffList)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
  });

  it('shows one cart to its owner and staff, 404 to others', async () => {
    const mine = await createCart(anna);
    expect(
      (await ctx.request('GET', `/api/v1/carts/${mine.id}/`, { token: anna.token })).body.id,
    ).toBe(mine.id);
    expect(
      (await ctx.request('GET', `/api/v1/carts/${mine.id}/`, { token: staff.token })).status,
    ).toBe(200);
    const other = await ctx.request('GET', `/api/v1/carts/${mine.id}/`, { token: bruno.token });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await ctx.request('GET', '/api/v1/carts/999999/', { token: anna.token })).status).toBe(
      404,
    );
    expect((await ctx.request('GET', '/api/v1/carts/abc/', { token: anna.token })).status).toBe(
      404,
    );
  });

  it('has_unlimited_credit comes from the organization', async () => {
    const cart = await createCart(bruno);
    const answer = await ctx.request('GET', `/api/v1/carts/${cart.id}/`, { token: bruno.token });
    const org = ctx.sim.data.organizations.find((o) => o.organization_id === brunoOrgs[0])!;
    expect(answer.body.has_unlimited_credit).toBe(org.has_unlimited_credit);
  });

  it('costs the same number of queries for a page of 1 cart and of 20 full carts', async () => {
    const fresh = await startTestApp();
    try {
      await createStore(fresh, GLN_A);
      const user = await fresh.login('bruno');
      const [org] = await organizationsOf(fresh, user.userId);
      const make = () =>
        cartWith(fresh, user, { store: GLN_A, organization: org, customer_order_number: 'Q' }, [
          ['P1', 1],
          ['P2', 1],
          ['P3', 1],
        ]);
      const cost = async () => {
        const before = fresh.database.queries;
        const answer = await fresh.request('GET', '/api/v1/carts/', { token: user.token });
        expect(answer.status).toBe(200);
        return fresh.database.queries - before;
      };
      await make();
      const one = await cost();
      for (let i = 0; i < 19; i++) await make();
      const twenty = await cost();
      expect(twenty).toBe(one);
      // The caller's user row, then the page with its count, lines and controls.
      expect(one).toBe(2);
    } finally {
      await fresh.close();
    }
  });

  // The hot paths (docs/decisions/0007-hot-paths.md): the caller's user row plus one statement.
  it('answers a cart, an item add, a list, stats and a time series in one statement each', async () => {
    const cart = await cartWith(ctx, anna, { store: GLN_A, organization: annaOrgs[0] }, [
      ['P1', 1],
    ]);
    const cost = async (method: string, path: string, session: Session, body?: unknown) => {
      const before = ctx.database.queries;
      const answer = await ctx.request(method, path, { token: session.token, body });
      expect(answer.status, answer.text).toBeLessThan(300);
      return ctx.database.queries - before;
    };
    // The caller's look-up and the read; behind a pooler the cart, the stats, the series and
    // the item add bring the caller in the read's call (migrations 0022, 0025, 0027): one.
    const pooled = ctx.database.pooled;
    for (const session of [anna, staff]) {
      const withCaller = pooled ? 1 : 2;
      expect(await cost('GET', `/api/v1/carts/${cart}/`, session)).toBe(pooled ? 1 : 2);
      expect(await cost('GET', '/api/v1/carts/?page_size=5', session)).toBe(2);
      expect(await cost('GET', `/api/v1/carts/?gln=${GLN_A}`, session)).toBe(2);
      expect(await cost('GET', '/api/v1/carts/stats/', session)).toBe(withCaller);
      expect(await cost('GET', '/api/v1/carts/time-series/?interval=D', session)).toBe(withCaller);
    }
    const add = { cart, part_number: 'P1', quantity: 2 };
    expect(await cost('POST', '/api/v1/items/', anna, add)).toBe(pooled ? 1 : 2);
  });
});

describe('cart list filters', () => {
  let fx: TestContext;
  let a: Session;
  let b: Session;
  let boss: Session;
  const made: Record<string, number> = {};

  beforeAll(async () => {
    fx = await startTestApp();
    await createStore(fx, GLN_A, { activePeriodSeconds: 3600 });
    await createStore(fx, GLN_B, { activePeriodSeconds: 7200 });
    a = await fx.login('anna');
    b = await fx.login('bruno');
    boss = await fx.loginAs('carla', 'admin');
    const [orgA] = await organizationsOf(fx, a.userId);
    const [orgB] = await organizationsOf(fx, b.userId);
    const make = async (
      name: string,
      s: Session,
      org: string,
      store: string | null,
      at: string,
      order: string,
      lines: [string, number][],
    ) => {
      fx.clock.set(at);
      made[name] = await cartWith(
        fx,
        s,
        { store, organization: org, customer_order_number: order },
        lines,
      );
    };
    await make('a_old', a, orgA, GLN_A, '2026-01-10T08:00:00Z', 'C', [['X', 1]]);
    await make('a_feb', a, orgA, GLN_B, '2026-02-10T08:00:00Z', 'A', [
      ['X', 5],
      ['Y', 5],
      ['Z', 5],
    ]);
    await make('a_wh', a, orgA, null, '2026-03-01T09:00:00Z', 'B', [['X', 2]]);
    await make('a_new', a, orgA, GLN_A, '2026-03-02T08:30:00Z', 'D', [
      ['X', 1],
      ['Y', 1],
    ]);
    await make('b_new', b, orgB, GLN_B, '2026-03-02T08:45:00Z', 'E', [['X', 7]]);
    await make('b_newer', b, orgB, GLN_A, '2026-03-02T08:50:00Z', 'F', []);
    fx.clock.set('2026-03-02T09:00:00Z');
    // a_feb is checked out (recorded directly: checkout itself is tested elsewhere).
    await fx.database.db.insert(checkouts).values({
      cartId: made.a_feb,
      created: '2026-02-10T09:00:00Z',
      orderId: 'o',
      orderNumber: 'n',
    });
    await fx.database.db
      .update(carts)
      .set({
        checkedOut: true,
        checkoutAvailabilityError: true,
        checkoutAvailabilityErrorAt: '2026-02-10T08:59:00Z',
      })
      .where(eq(carts.id, made.a_feb));
  });
  afterAll(() => fx?.close());

  const q = async (s: Session, query: string) => {
    const answer = await fx.request('GET', `/api/v1/carts/${query}`, { token: s.token });
    expect(answer.status, `${query} ${answer.text}`).toBe(200);
    return ids(answer);
  };

  it('active: store carts within the active period, warehouse carts until checked out', async () => {
    // now 09:00: a_new (08:30 + 1 h) and b_new (08:45 + 2 h), b_newer active; a_old not; a_wh active.
    expect((await q(a, '?active=True')).sort()).toEqual([made.a_new, made.a_wh].sort());
    expect((await q(a, '?active=false')).sort()).toEqual([made.a_old, made.a_feb].sort());
    fx.clock.set('2026-03-02T09:30:00.000001Z');
    expect(await q(a, '?active=1')).toEqual([made.a_wh]);
    fx.clock.set('2026-03-02T09:00:00Z');
  });

  it('created_after / created_before, with dates and date-times', async () => {
    expect((await q(a, '?created_after=2026-03-01')).sort()).toEqual(
      [made.a_wh, made.a_new].sort(),
    );
    expect(await q(a, '?created_before=2026-02-01')).toEqual([made.a_old]);
    expect(await q(a, '?created_after=2026-03-01T09:00:00Z')).toEqual([made.a_new]);
    expect(await q(a, `?created_after=${encodeURIComponent('2026-03-02T09:00:00+01:00')}`)).toEqual(
      [made.a_new],
    );
  });

  it('checkout, gln, exclude_warehouse, checkout_availability_error', async () => {
    expect(await q(a, '?checkout=True')).toEqual([made.a_feb]);
    expect(await q(a, '?checkout=False')).not.toContain(made.a_feb);
    expect((await q(a, `?gln=${GLN_A}`)).sort()).toEqual([made.a_old, made.a_new].sort());
    expect(await q(a, '?exclude_warehouse=True')).not.toContain(made.a_wh);
    expect(await q(a, '?exclude_warehouse=False')).toContain(made.a_wh);
    expect(await q(a, '?checkout_availability_error=True')).toEqual([made.a_feb]);
    expect((await q(a, '?checkout_availability_error=False')).length).toBe(3);
  });

  it('ordering by each key, both directions; default -created', async () => {
    expect(await q(a, '')).toEqual([made.a_new, made.a_wh, made.a_feb, made.a_old]);
    expect(await q(a, '?ordering=created')).toEqual([
      made.a_old,
      made.a_feb,
      made.a_wh,
      made.a_new,
    ]);
    expect(await q(a, '?ordering=customer_order_number')).toEqual([
      made.a_feb,
      made.a_wh,
      made.a_old,
      made.a_new,
    ]);
    expect(await q(a, '?ordering=-items_count')).toEqual([
      made.a_feb,
      made.a_new,
      made.a_wh,
      made.a_old,
    ]);
    // a_wh and a_new tie at 2: the id breaks the tie, in the same direction.
    expect(await q(a, '?ordering=total_quantity')).toEqual([
      made.a_old,
      made.a_wh,
      made.a_new,
      made.a_feb,
    ]);
    expect(await q(a, '?ordering=-total_quantity')).toEqual([
      made.a_feb,
      made.a_new,
      made.a_wh,
      made.a_old,
    ]);
    // last_activity: a_old was touched last (moved here), so it leads, created order aside.
    const [{ lastActivity }] = await fx.database.db
      .select({ lastActivity: carts.lastActivity })
      .from(carts)
      .where(eq(carts.id, made.a_old));
    await fx.database.db
      .update(carts)
      .set({ lastActivity: '2026-03-02T08:40:00Z' })
      .where(eq(carts.id, made.a_old));
    try {
      expect(await q(a, '?ordering=-last_activity')).toEqual([
        made.a_old,
        made.a_new,
        made.a_wh,
        made.a_feb,
      ]);
      expect(await q(a, '?ordering=last_activity')).toEqual([
        made.a_feb,
        made.a_wh,
        made.a_new,
        made.a_old,
      ]);
    } finally {
      await fx.database.db.update(carts).set({ lastActivity }).where(eq(carts.id, made.a_old));
    }
    const bad = await fx.request('GET', '/api/v1/carts/?ordering=user', { token: a.token });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['ordering']);
  });

  it('user and each_user are for staff; a customer still sees only their own carts', async () => {
    expect((await q(boss, `?user=${b.userId}`)).sort()).toEqual([made.b_new, made.b_newer].sort());
    expect(await q(a, `?user=${b.userId}`)).toEqual([]);
    expect((await q(boss, '?each_user=True')).sort()).toEqual([made.a_new, made.b_newer].sort());
    expect(await q(a, '?each_user=True')).toEqual([made.a_new]);
    expect(await q(boss, `?each_user=True&gln=${GLN_B}`)).toEqual([made.b_new]);
  });

  it('stats: sums of total_quantity and items_count over the filtered carts', async () => {
    const all = await fx.request('GET', '/api/v1/carts/stats/', { token: a.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ total_quantity: 1 + 15 + 2 + 2, total_items: 1 + 3 + 1 + 2 });
    const filtered = await fx.request('GET', `/api/v1/carts/stats/?gln=${GLN_A}`, {
      token: a.token,
    });
    expect(filtered.body).toEqual({ total_quantity: 3, total_items: 3 });
    const staffAll = await fx.request('GET', '/api/v1/carts/stats/', { token: boss.token });
    expect(staffAll.body).toEqual({ total_quantity: 27, total_items: 8 });
    const none = await fx.request('GET', '/api/v1/carts/stats/?created_after=2030-01-01', {
      token: a.token,
    });
    expect(none.body).toEqual({ total_quantity: 0, total_items: 0 });
    const bad = await fx.request('GET', '/api/v1/carts/stats/?active=maybe', { token: a.token });
    expect(bad.status).toBe(400);
  });

  it('time series: UTC buckets by month, week, day and hour, carts or items, empty buckets left out', async () => {
    const get = async (query: string) => {
      const answer = await fx.request('GET', `/api/v1/carts/time-series/${query}`, {
        token: boss.token,
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    expect(await get('?interval=M')).toEqual([
      { interval: '2026-01-01T00:00:00.000000Z', total: 1 },
      { interval: '2026-02-01T00:00:00.000000Z', total: 1 },
      { interval: '2026-03-01T00:00:00.000000Z', total: 4 },
    ]);
    expect(await get('?interval=M&aggregate=items')).toEqual([
      { interval: '2026-01-01T00:00:00.000000Z', total: 1 },
      { interval: '2026-02-01T00:00:00.000000Z', total: 3 },
      { interval: '2026-03-01T00:00:00.000000Z', total: 4 },
    ]);
    expect(await get('?interval=D&created_after=2026-03-01')).toEqual([
      { interval: '2026-03-01T00:00:00.000000Z', total: 1 },
      { interval: '2026-03-02T00:00:00.000000Z', total: 3 },
    ]);
    expect(await get('?interval=H&created_after=2026-03-02')).toEqual([
      { interval: '2026-03-02T08:00:00.000000Z', total: 3 },
    ]);
    const mine = await fx.request('GET', '/api/v1/carts/time-series/?interval=M', {
      token: a.token,
    });
    expect(mine.body.map((r: { total: number }) => r.total)).toEqual([1, 1, 2]);
    // Weeks start on Monday: Sunday 1 March falls in the week of 23 February.
    expect(await get('?interval=W')).toEqual([
      { interval: '2026-01-05T00:00:00.000000Z', total: 1 },
      { interval: '2026-02-09T00:00:00.000000Z', total: 1 },
      { interval: '2026-02-23T00:00:00.000000Z', total: 1 },
      { interval: '2026-03-02T00:00:00.000000Z', total: 3 },
    ]);
    // The answer's text is the schema's serializer's, written entry by entry.
    for (const query of ['?interval=W', '?interval=H', '?created_after=2030-01-01']) {
      const answer = await fx.request('GET', `/api/v1/carts/time-series/${query}`, {
        token: boss.token,
      });
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.text).toBe(fastJson(TimeSeriesSchema)(answer.body));
    }
    const bad = await fx.request('GET', '/api/v1/carts/time-series/?interval=Y', {
      token: a.token,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['interval']);
  });
});

describe('time series before 1970', () => {
  it('buckets before the epoch come in order with their own start, from the rollups and from the carts', async () => {
    const fx = await startTestApp();
    try {
      await createStore(fx, GLN_A, { activePeriodSeconds: 3600 });
      const a = await fx.login('anna');
      const boss = await fx.loginAs('carla', 'admin');
      const [org] = await organizationsOf(fx, a.userId);
      for (const at of ['1969-12-30T10:00:00Z', '1970-01-02T10:00:00Z', '1969-12-30T11:00:00Z']) {
        fx.clock.set(at);
        await cartWith(fx, a, { store: GLN_A, organization: org }, [['X', 1]]);
      }
      const series = async (query: string, token: string) =>
        (await fx.request('GET', `/api/v1/carts/time-series/${query}`, { token })).body;
      const days = [
        { total: 2, interval: '1969-12-30T00:00:00.000000Z' },
        { total: 1, interval: '1970-01-02T00:00:00.000000Z' },
      ];
      expect(await series(`?interval=D&gln=${GLN_A}`, boss.token)).toEqual(days);
      expect(await series('?interval=D', a.token)).toEqual(days);
      expect(await series('?interval=H', boss.token)).toEqual([
        { total: 1, interval: '1969-12-30T10:00:00.000000Z' },
        { total: 1, interval: '1969-12-30T11:00:00.000000Z' },
        { total: 1, interval: '1970-01-02T10:00:00.000000Z' },
      ]);
    } finally {
      await fx.close();
    }
  });
});
