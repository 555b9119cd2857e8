import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carts, controls } from '../../src/db/schema.js';
import { type Answer, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import {
  checkedOutCart,
  controlsOfCart,
  createCart,
  createStore,
  loginStaff,
} from '../helpers/fixtures.js';

const GLN_A = '4099990000011';
const GLN_B = '4099990000028';
/** Short active period: carts here go inactive after a minute. */
const GLN_SHORT = '4099990000035';
const GLN_LIST = '4099990000042';
const GLN_PATCH = '4099990000066';
/** Every checkout here is drawn for a random control (N = 1). */
const GLN_RANDOM = '4099990000059';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let admin: Session;
const store: Record<string, number> = {};

beforeAll(async () => {
  ctx = await startTestApp();
  store.A = await createStore(ctx, GLN_A, { activePeriodSeconds: 3600 });
  store.B = await createStore(ctx, GLN_B, { activePeriodSeconds: 3600 });
  store.SHORT = await createStore(ctx, GLN_SHORT, { activePeriodSeconds: 60 });
  store.LIST = await createStore(ctx, GLN_LIST, { activePeriodSeconds: 3600 });
  store.PATCH = await createStore(ctx, GLN_PATCH, { activePeriodSeconds: 3600 });
  store.RANDOM = await createStore(ctx, GLN_RANDOM, {
    activePeriodSeconds: 3600,
    cartsForRandomControl: 1,
  });
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await loginStaff(ctx);
  admin = await ctx.loginAs('carla', 'admin');
});
afterAll(() => ctx?.close());

const CONTROLS = '/api/v1/controls/';

const post = (session: Session | undefined, body: unknown) =>
  ctx.request('POST', CONTROLS, { token: session?.token, body });
const patch = (session: Session | undefined, id: number, body: unknown) =>
  ctx.request('PATCH', `${CONTROLS}${id}/`, { token: session?.token, body });
const get = (session: Session | undefined, path: string) =>
  ctx.request('GET', `${CONTROLS}${path}`, { token: session?.token });

async function createControl(user: Session, storeId: number, status = 'pending') {
  const answer = await post(admin, { user: user.userId, store: storeId, status });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: number; carts: number[]; created: string };
}

async function controlCount(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(controls);
  return row.n;
}

function expectError(answer: Answer, status: number, code: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ detail: expect.any(String), code });
}

const ids = (answer: Answer) => {
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.results as { id: number }[]).map((c) => c.id);
};

describe('permission matrix', () => {
  let control: number;

  it('POST controls/: anonymous 401; customers and staff 403 (admins only); admin 201', async () => {
    await createCart(ctx, anna, { store: GLN_A });
    const body = { user: anna.userId, store: store.A, status: 'pending' };
    const before = await controlCount();
    const refused: [string, Session | undefined, number, string][] = [
      ['anonymous', undefined, 401, 'not_authenticated'],
      ['customer', anna, 403, 'permission_denied'],
      ['another customer', bruno, 403, 'permission_denied'],
      ['staff', staff, 403, 'permission_denied'],
    ];
    for (const [who, session, status, code] of refused) {
      const answer = await post(session, body);
      expectError(answer, status, code);
      expect(answer.status, who).toBe(status);
    }
    expect(await controlCount()).toBe(before);
    const created = await post(admin, body);
    expect(created.status, created.text).toBe(201);
    control = created.body.id;
  });

  it('PATCH controls/{id}/: anonymous 401; customers and staff 403 (admins only); admin 200', async () => {
    const refused: [string, Session | undefined, number, string][] = [
      ['anonymous', undefined, 401, 'not_authenticated'],
      ['customer (owner)', anna, 403, 'permission_denied'],
      ['another customer', bruno, 403, 'permission_denied'],
      ['staff', staff, 403, 'permission_denied'],
    ];
    for (const [who, session, status, code] of refused) {
      const answer = await patch(session, control, { status: 'verified' });
      expectError(answer, status, code);
      expect(answer.status, who).toBe(status);
    }
    expect((await get(admin, `${control}/`)).body.status).toBe('pending');
    const answer = await patch(admin, control, { status: 'verified' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.status).toBe('verified');
  });

  it('GET controls/: anonymous 401; the owner sees it, another customer not; staff and admin see all', async () => {
    expectError(await get(undefined, ''), 401, 'not_authenticated');
    const cells: [string, Session, boolean][] = [
      ['customer (owner)', anna, true],
      ['another customer', bruno, false],
      ['staff', staff, true],
      ['admin', admin, true],
    ];
    for (const [who, session, sees] of cells) {
      expect(ids(await get(session, `?store=${store.A}`)).includes(control), who).toBe(sees);
    }
  });

  it('GET controls/{id}/: anonymous 401; owner 200; another customer 404; staff and admin 200', async () => {
    expectError(await get(undefined, `${control}/`), 401, 'not_authenticated');
    const cells: [string, Session, number][] = [
      ['customer (owner)', anna, 200],
      ['another customer', bruno, 404],
      ['staff', staff, 200],
      ['admin', admin, 200],
    ];
    for (const [who, session, status] of cells) {
      const answer = await get(session, `${control}/`);
      expect(answer.status, who).toBe(status);
      if (status === 404) expectError(answer, 404, 'not_found');
      else expect(answer.body.id, who).toBe(control);
    }
  });
});

describe('POST controls/', () => {
  it('attaches every active cart of the user in the store, and only those', async () => {
    ctx.clock.set('2026-03-02T09:10:00Z');
    const expired = await createCart(ctx, anna, { store: GLN_SHORT });
    ctx.clock.advance(61); // past the store's 60 s active period
    const fresh = await createCart(ctx, anna, { store: GLN_SHORT });
    const checkedOut = await checkedOutCart(ctx, anna, { store: GLN_SHORT }); // checked out, still active
    const otherStore = await createCart(ctx, anna, { store: GLN_B });
    const warehouse = await createCart(ctx, anna, { store: null });
    const otherUser = await createCart(ctx, bruno, { store: GLN_SHORT });
    ctx.clock.set('2026-03-02T09:11:02.123456Z');

    const answer = await post(admin, { user: anna.userId, store: store.SHORT, status: 'pending' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(Number),
      created: '2026-03-02T09:11:02.123456Z',
      verified_at: null,
      is_random: false,
      status: 'pending',
      user: anna.userId,
      store: store.SHORT,
      carts: [fresh, checkedOut],
      controller: admin.userId,
    });
    for (const cart of [expired, otherStore, warehouse, otherUser]) {
      expect(answer.body.carts).not.toContain(cart);
    }
    // The detail answers the same create form.
    const detail = await get(admin, `${answer.body.id}/`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(answer.body);
  });

  it('created verified: verified_at is set to now', async () => {
    await createCart(ctx, bruno, { store: GLN_A });
    ctx.clock.set('2026-03-02T09:12:00.000001Z');
    const answer = await post(admin, { user: bruno.userId, store: store.A, status: 'verified' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      created: '2026-03-02T09:12:00.000001Z',
      verified_at: '2026-03-02T09:12:00.000001Z',
      status: 'verified',
      is_random: false,
      controller: admin.userId,
    });
  });

  it('no active cart of the user in the store is 400 non_field_errors, and creates nothing', async () => {
    const before = await controlCount();
    // Bruno has no cart at all in store B.
    const none = await post(admin, { user: bruno.userId, store: store.B, status: 'pending' });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ non_field_errors: [expect.any(String)] });
    // Only an inactive cart: the same.
    await createCart(ctx, bruno, { store: GLN_SHORT });
    ctx.clock.advance(61);
    const inactive = await post(admin, {
      user: bruno.userId,
      store: store.SHORT,
      status: 'pending',
    });
    expect(inactive.status).toBe(400);
    expect(inactive.body).toEqual({ non_field_errors: [expect.any(String)] });
    expect(await controlCount()).toBe(before);
  });

  it('an unknown user or store is a 400 on that field', async () => {
    const user = await post(admin, { user: 999999, store: store.A, status: 'pending' });
    expect(user.status).toBe(400);
    expect(user.body).toEqual({ user: [expect.any(String)] });
    const where = await post(admin, { user: anna.userId, store: 999999, status: 'pending' });
    expect(where.status).toBe(400);
    expect(where.body).toEqual({ store: [expect.any(String)] });
    const both = await post(admin, { user: 999999, store: 999999, status: 'pending' });
    expect(both.status).toBe(400);
    expect(Object.keys(both.body).sort()).toEqual(['store', 'user']);
  });

  it('bad or missing fields are 400 per field, never 500', async () => {
    const bad = await post(admin, { user: 'anna', store: 1.5, status: 'done' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['status', 'store', 'user']);
    const missing = await post(admin, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      user: ['This field is required.'],
      store: ['This field is required.'],
      status: ['This field is required.'],
    });
    const huge = await post(admin, { user: 2 ** 40, store: store.A, status: 'pending' });
    expect(huge.status).toBe(400);
    expect(Object.keys(huge.body)).toEqual(['user']);
  });
});

describe('PATCH controls/{id}/', () => {
  let control: { id: number; carts: number[]; created: string };

  beforeAll(async () => {
    ctx.clock.set('2026-03-02T09:15:00Z');
    await createCart(ctx, anna, { store: GLN_PATCH });
    await createCart(ctx, anna, { store: GLN_PATCH });
    control = await createControl(anna, store.PATCH);
    expect(control.carts).toHaveLength(2);
  });

  it('"pending" is not a target: 400 on status, the control stays pending', async () => {
    const answer = await patch(admin, control.id, { status: 'pending' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: [expect.any(String)] });
    const detail = await get(admin, `${control.id}/`);
    expect(detail.body).toMatchObject({ status: 'pending', verified_at: null });
  });

  it('pending → verified sets verified_at; answers the update form with the lowest cart', async () => {
    ctx.clock.set('2026-03-02T09:20:00.5Z');
    const answer = await patch(admin, control.id, { status: 'verified' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toStrictEqual({
      id: control.id,
      created: control.created,
      verified_at: '2026-03-02T09:20:00.500000Z',
      is_random: false,
      status: 'verified',
      user: anna.userId,
      cart: Math.min(...control.carts),
    });
    const detail = await get(admin, `${control.id}/`);
    expect(detail.body).toMatchObject({
      status: 'verified',
      verified_at: '2026-03-02T09:20:00.500000Z',
      carts: control.carts,
      controller: admin.userId,
    });
  });

  it('verified → verified answers 200 and changes nothing', async () => {
    ctx.clock.set('2026-03-02T09:25:00Z');
    const answer = await patch(admin, control.id, { status: 'verified' });
    expect(answer.status).toBe(200);
    expect(answer.body.verified_at).toBe('2026-03-02T09:20:00.500000Z');
    const detail = await get(admin, `${control.id}/`);
    expect(detail.body.verified_at).toBe('2026-03-02T09:20:00.500000Z');
  });

  it('verified → pending is 400 on status', async () => {
    const answer = await patch(admin, control.id, { status: 'pending' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: [expect.any(String)] });
    expect((await get(admin, `${control.id}/`)).body.status).toBe('verified');
  });

  it('bad or missing status is 400; an unknown control is 404', async () => {
    const bad = await patch(admin, control.id, { status: 'done' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: [expect.any(String)] });
    const missing = await patch(admin, control.id, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ status: ['This field is required.'] });
    expectError(await patch(admin, 999999, { status: 'verified' }), 404, 'not_found');
    expectError(await patch(admin, 999999, { status: 'pending' }), 404, 'not_found');
  });

  it('cart is null when the control holds no cart any more', async () => {
    ctx.clock.set('2026-03-02T09:26:00Z');
    const cart = await createCart(ctx, bruno, { store: GLN_B });
    const empty = await createControl(bruno, store.B);
    expect(empty.carts).toEqual([cart]);
    // Carts have no delete endpoint yet; deleting the row stands in for it.
    await ctx.database.db.delete(carts).where(eq(carts.id, cart));
    const answer = await patch(admin, empty.id, { status: 'verified' });
    expect(answer.status).toBe(200);
    expect(answer.body.cart).toBeNull();
    expect((await get(admin, `${empty.id}/`)).body.carts).toEqual([]);
  });
});

describe('GET controls/ and GET controls/{id}/', () => {
  const made: Record<string, number> = {};

  beforeAll(async () => {
    ctx.clock.set('2026-03-02T09:30:00Z');
    await createCart(ctx, anna, { store: GLN_LIST });
    await createCart(ctx, bruno, { store: GLN_LIST });
    made.annaPending = (await createControl(anna, store.LIST)).id;
    ctx.clock.advance(1);
    made.brunoVerified = (await createControl(bruno, store.LIST, 'verified')).id;
    ctx.clock.advance(1);
    // A random control, drawn on checkout (N = 1 always draws).
    const cart = await checkedOutCart(ctx, anna, { store: GLN_RANDOM });
    const [random] = (await get(admin, `?store=${store.RANDOM}`)).body.results;
    expect(random).toMatchObject({ is_random: true, carts: [cart] });
    made.annaRandom = random.id;
  });

  it('staff and admins list all, newest first, with each filter', async () => {
    const { annaPending, brunoVerified, annaRandom } = made;
    for (const session of [admin, staff]) {
      expect(ids(await get(session, `?store=${store.LIST}`))).toEqual([brunoVerified, annaPending]);
    }
    expect(ids(await get(admin, `?store=${store.LIST}&status=pending`))).toEqual([annaPending]);
    expect(ids(await get(admin, `?store=${store.LIST}&status=verified`))).toEqual([brunoVerified]);
    expect(ids(await get(admin, `?store=${store.LIST}&user=${bruno.userId}`))).toEqual([
      brunoVerified,
    ]);
    const randoms = ids(await get(admin, '?is_random=True'));
    expect(randoms).toEqual([annaRandom]);
    expect(ids(await get(admin, '?is_random=false'))).not.toContain(annaRandom);
    expect(ids(await get(admin, `?store=${store.LIST}&ordering=created`))).toEqual([
      annaPending,
      brunoVerified,
    ]);
  });

  it("filters by creation time (the dashboard's period, issue 32)", async () => {
    const { annaPending, brunoVerified } = made;
    const inList = (answer: Answer) => ids(answer).filter((id) => id !== made.annaRandom);
    // annaPending at 09:30:00, brunoVerified a second later.
    expect(
      inList(await get(admin, `?store=${store.LIST}&created_after=2026-03-02T09:30:00.5Z`)),
    ).toEqual([brunoVerified]);
    expect(
      inList(await get(admin, `?store=${store.LIST}&created_before=2026-03-02T09:30:00.5Z`)),
    ).toEqual([annaPending]);
    expect(
      inList(
        await get(admin, `?store=${store.LIST}&created_after=2026-03-02&created_before=2026-03-03`),
      ),
    ).toEqual([brunoVerified, annaPending]);
    expect(ids(await get(admin, `?store=${store.LIST}&created_after=2026-03-03`))).toEqual([]);
  });

  it('pages with the envelope', async () => {
    const first = await get(admin, `?store=${store.LIST}&page_size=1`);
    expect(first.body).toEqual({
      count: 2,
      next: expect.stringContaining(`store=${store.LIST}`),
      previous: null,
      results: [expect.objectContaining({ id: made.brunoVerified })],
    });
    const next = new URL(first.body.next);
    const second = await ctx.request('GET', next.pathname + next.search, { token: admin.token });
    expect(ids(second)).toEqual([made.annaPending]);
    expect(second.body.previous).not.toBeNull();
    expectError(await get(admin, `?store=${store.LIST}&page=3`), 404, 'not_found');
  });

  it('a customer sees only their own controls, whatever the filters', async () => {
    expect(ids(await get(anna, `?store=${store.LIST}`))).toEqual([made.annaPending]);
    expect(ids(await get(anna, `?store=${store.LIST}&user=${bruno.userId}`))).toEqual([]);
    expect(ids(await get(bruno, `?store=${store.LIST}`))).toEqual([made.brunoVerified]);
    const own = ids(await get(anna, ''));
    expect(own).toContain(made.annaRandom);
    expect(own).not.toContain(made.brunoVerified);
    expect((await get(anna, `${made.annaRandom}/`)).status).toBe(200);
    expectError(await get(bruno, `${made.annaRandom}/`), 404, 'not_found');
    expectError(await get(anna, `${made.brunoVerified}/`), 404, 'not_found');
  });

  it('bad filter values are 400 on that parameter; an unknown id is 404', async () => {
    for (const [query, field] of [
      ['?is_random=maybe', 'is_random'],
      ['?store=abc', 'store'],
      ['?user=-1', 'user'],
      ['?status=done', 'status'],
      ['?ordering=user', 'ordering'],
      ['?created_after=yesterday', 'created_after'],
      ['?created_before=2026-02-30', 'created_before'],
    ]) {
      const answer = await get(admin, query);
      expect(answer.status, query).toBe(400);
      expect(Object.keys(answer.body), query).toEqual([field]);
    }
    expectError(await get(admin, '999999/'), 404, 'not_found');
  });
});

describe('cart list: controls', () => {
  it('shows the ids of the controls holding the cart, to the owner and to staff', async () => {
    ctx.clock.set('2026-03-02T09:40:00Z');
    const cart = await createCart(ctx, bruno, { store: GLN_A });
    const untouched = await createCart(ctx, anna, { store: GLN_A });
    expect(await controlsOfCart(ctx, bruno, cart)).toEqual([]);
    const first = await createControl(bruno, store.A);
    const second = await createControl(bruno, store.A);
    expect(first.carts).toContain(cart);
    expect(await controlsOfCart(ctx, bruno, cart)).toEqual([first.id, second.id]);
    expect(await controlsOfCart(ctx, staff, cart)).toEqual([first.id, second.id]);
    expect(await controlsOfCart(ctx, anna, untouched)).not.toContain(first.id);
  });
});

describe('DELETE controls/{id}/ (reject)', () => {
  const reject = (session: Session | undefined, id: number) =>
    ctx.request('DELETE', `${CONTROLS}${id}/`, { token: session?.token });

  it('an admin rejects a pending control: 204, gone from the list and from its carts', async () => {
    const cart = await createCart(ctx, bruno, { store: GLN_A });
    const control = await createControl(bruno, store.A);
    expect(await controlsOfCart(ctx, staff, cart)).toContain(control.id);
    const answer = await reject(admin, control.id);
    expect(answer.status, answer.text).toBe(204);
    expect(answer.text).toBe('');
    expect((await get(admin, `${control.id}/`)).status).toBe(404);
    expect(await controlsOfCart(ctx, staff, cart)).not.toContain(control.id);
    // The carts stay.
    expect(
      (await ctx.request('GET', `/api/v1/carts/${cart}/`, { token: bruno.token })).status,
    ).toBe(200);
    expect((await reject(admin, control.id)).status).toBe(404);
  });

  it('a verified control cannot be rejected: 400 non_field_errors, and it stays', async () => {
    await createCart(ctx, bruno, { store: GLN_A });
    const control = await createControl(bruno, store.A, 'verified');
    const answer = await reject(admin, control.id);
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body)).toEqual(['non_field_errors']);
    expect((await get(admin, `${control.id}/`)).body.status).toBe('verified');
  });

  it('permission matrix: anonymous 401, customer and staff 403; nothing removed', async () => {
    await createCart(ctx, bruno, { store: GLN_A });
    const control = await createControl(bruno, store.A);
    for (const [session, status] of [
      [undefined, 401],
      [bruno, 403],
      [staff, 403],
    ] as const) {
      expect((await reject(session, control.id)).status).toBe(status);
    }
    expect((await get(admin, `${control.id}/`)).body.status).toBe('pending');
  });
});
