import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { shoppingListItems, shoppingLists, users } from '../../src/db/schema.js';
import { type Answer, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createCart, createStore } from '../helpers/fixtures.js';

const GLN = DEMO_STORE_GLNS[0];
const LISTS = '/api/v1/shopping-lists/';
const ITEMS = '/api/v1/shopping-list-items/';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let carla: Session;

beforeAll(async () => {
  ctx = await startTestApp();
  await createStore(ctx, GLN);
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  carla = await ctx.login('carla');
});
// Every clock.set below stays inside the first hour: the sessions log in at 09:00.
afterAll(() => ctx?.close());

/** Carla is the staff member or the administrator, as a test needs. */
async function carlaAs(role: 'customer' | 'staff' | 'admin'): Promise<Session> {
  await ctx.database.db
    .update(users)
    .set({ isStaff: role === 'staff', isAdmin: role === 'admin' })
    .where(eq(users.id, carla.userId));
  return carla;
}

const call = (method: string, path: string, session?: Session, body?: unknown) =>
  ctx.request(method, path, { token: session?.token, body });

async function createList(session: Session, name = 'Groceries'): Promise<number> {
  const answer = await call('POST', LISTS, session, { name });
  expect(answer.status, answer.text).toBe(201);
  return Number(/\/shopping-lists\/(\d+)\/$/.exec(answer.headers.get('location') ?? '')?.[1]);
}

async function addItem(session: Session, list: number, name = 'Screws', quantity = 1) {
  const answer = await call('POST', ITEMS, session, { shopping_list: list, name, quantity });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: number; name: string; quantity: number; scanned: boolean };
}

const newCart = (session: Session) =>
  createCart(ctx, session, { store: GLN, customer_order_number: 'PO' });

const ids = (answer: { body: { results: { id: number }[] } }) =>
  answer.body.results.map((r) => r.id);

describe('POST shopping-lists/', () => {
  it('answers 201 with no body and an absolute, GET-able Location', async () => {
    ctx.clock.set('2026-03-02T09:05:00.123456Z');
    const answer = await call('POST', LISTS, anna, { name: '  Weekend job  ' });
    expect(answer.status).toBe(201);
    expect(answer.text).toBe('');
    const location = answer.headers.get('location') ?? '';
    expect(location).toMatch(new RegExp(`^${ctx.url}/api/v1/shopping-lists/\\d+/$`));
    const fetched = await ctx.request('GET', location.slice(ctx.url.length), {
      token: anna.token,
    });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({
      id: Number(/(\d+)\/$/.exec(location)?.[1]),
      name: 'Weekend job',
      items: [],
      created: '2026-03-02T09:05:00.123456Z',
    });
    // A client following the Location with a plain fetch gets the same list.
    const direct = await fetch(location, { headers: { authorization: `Bearer ${anna.token}` } });
    expect(direct.status).toBe(200);
  });

  it('validates name: required, not blank once trimmed, at most 200 characters', async () => {
    const bad: unknown[] = [{}, { name: '' }, { name: '   ' }, { name: null }, { name: 5 }];
    bad.push({ name: 'x'.repeat(201) });
    for (const body of bad) {
      const answer = await call('POST', LISTS, anna, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body), JSON.stringify(body)).toEqual(['name']);
    }
    expect((await call('POST', LISTS, anna, { name: 'x'.repeat(200) })).status).toBe(201);
  });
});

describe('shopping list detail', () => {
  it('embeds items oldest first and PATCHes the name', async () => {
    const list = await createList(anna, 'Before');
    ctx.clock.set('2026-03-02T09:10:00Z');
    const first = await addItem(anna, list, 'Dowels', 4);
    ctx.clock.set('2026-03-02T09:10:01Z');
    const second = await addItem(anna, list, 'Anchors', 2);
    const patched = await call('PATCH', `${LISTS}${list}/`, anna, { name: ' After ' });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('After');
    expect(patched.body.items.map((i: { id: number }) => i.id)).toEqual([first.id, second.id]);
    expect(patched.body.items[0]).toEqual({
      id: first.id,
      name: 'Dowels',
      quantity: 4,
      scanned: false,
      created: '2026-03-02T09:10:00.000000Z',
    });
    const fetched = await call('GET', `${LISTS}${list}/`, anna);
    expect(fetched.body).toEqual(patched.body);
  });

  it('validates PATCH fields and leaves the list unchanged on 400', async () => {
    const list = await createList(anna, 'Keep');
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: '  ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: null }, 'name'],
      [{ cart: 'abc' }, 'cart'],
      [{ cart: 1.5 }, 'cart'],
      [{ cart: 0 }, 'cart'],
      [{ cart: 99_999_999 }, 'cart'],
      [{ cart: 2 ** 31 }, 'cart'],
    ];
    for (const [body, field] of cases) {
      const answer = await call('PATCH', `${LISTS}${list}/`, anna, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body), JSON.stringify(body)).toEqual([field]);
    }
    expect((await call('GET', `${LISTS}${list}/`, anna)).body.name).toBe('Keep');
    const empty = await call('PATCH', `${LISTS}${list}/`, anna, {});
    expect(empty.status).toBe(200);
    expect(empty.body.name).toBe('Keep');
  });

  it('an unknown or malformed id is 404', async () => {
    for (const path of [`${LISTS}99999999/`, `${LISTS}abc/`, `${ITEMS}99999999/`, `${ITEMS}x/`]) {
      expect((await call('GET', path, anna)).status, path).toBe(404);
      expect((await call('PATCH', path, anna, { name: 'x' })).status, path).toBe(404);
      expect((await call('DELETE', path, anna)).status, path).toBe(404);
    }
  });

  it('DELETE answers 204 and takes the items with it', async () => {
    const list = await createList(anna, 'Doomed');
    const items = [await addItem(anna, list, 'A'), await addItem(anna, list, 'B')];
    const deleted = await call('DELETE', `${LISTS}${list}/`, anna);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await call('GET', `${LISTS}${list}/`, anna)).status).toBe(404);
    expect((await call('DELETE', `${LISTS}${list}/`, anna)).status).toBe(404);
    for (const item of items) {
      expect((await call('GET', `${ITEMS}${item.id}/`, anna)).status).toBe(404);
    }
    const filtered = await call('GET', `${ITEMS}?shopping_list=${list}`, anna);
    expect(filtered.body.count).toBe(0);
    const rows = await ctx.database.db
      .select()
      .from(shoppingListItems)
      .where(
        inArray(
          shoppingListItems.id,
          items.map((i) => i.id),
        ),
      );
    expect(rows).toEqual([]);
  });
});

describe('linking a cart', () => {
  it('links the user’s own cart and unlinks it with null', async () => {
    const cart = await newCart(anna);
    const list = await createList(anna, 'To link');
    await addItem(anna, list);
    const ready = async () =>
      ids(await call('GET', `${LISTS}?to_ckeckin=True&page_size=100`, anna)).includes(list);
    expect(await ready()).toBe(true);

    const linked = await call('PATCH', `${LISTS}${list}/`, anna, { cart });
    expect(linked.status).toBe(200);
    expect(linked.body.id).toBe(list);
    expect(await ready()).toBe(false);
    const [row] = await ctx.database.db
      .select()
      .from(shoppingLists)
      .where(eq(shoppingLists.id, list));
    expect(row.cartId).toBe(cart);

    // A name change alone keeps the link.
    await call('PATCH', `${LISTS}${list}/`, anna, { name: 'Renamed' });
    expect(await ready()).toBe(false);

    const unlinked = await call('PATCH', `${LISTS}${list}/`, anna, { cart: null });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.name).toBe('Renamed');
    expect(await ready()).toBe(true);
  });

  it("refuses another user's cart with 400 on cart, for staff and admins too", async () => {
    const annasCart = await newCart(anna);
    for (const who of ['another customer', 'staff', 'admin'] as const) {
      const session = who === 'another customer' ? bruno : await carlaAs(who);
      const list = await createList(session, 'Mine');
      const answer = await call('PATCH', `${LISTS}${list}/`, session, { cart: annasCart });
      expect(answer.status, who).toBe(400);
      expect(answer.body).toEqual({
        cart: [`Invalid pk "${annasCart}" - object does not exist.`],
      });
      const [row] = await ctx.database.db
        .select()
        .from(shoppingLists)
        .where(eq(shoppingLists.id, list));
      expect(row.cartId).toBeNull();
    }
    await carlaAs('customer');
  });
});

describe('GET shopping-lists/', () => {
  it('lists only the user’s lists, newest first, with their items', async () => {
    const session = await carlaAs('customer');
    ctx.clock.set('2026-03-02T09:20:00Z');
    const older = await createList(session, 'b-older');
    await addItem(session, older, 'Nails', 7);
    ctx.clock.set('2026-03-02T09:25:00Z');
    const newer = await createList(session, 'a-newer');
    const page = await call('GET', `${LISTS}?page_size=100`, session);
    expect(page.status).toBe(200);
    const mine = await ctx.database.db
      .select({ id: shoppingLists.id })
      .from(shoppingLists)
      .where(eq(shoppingLists.userId, session.userId));
    expect(page.body.count).toBe(mine.length);
    expect(ids(page).sort()).toEqual(mine.map((r) => r.id).sort());
    expect(ids(page).indexOf(newer)).toBeLessThan(ids(page).indexOf(older));
    const olderListed = page.body.results.find((r: { id: number }) => r.id === older);
    expect(olderListed.items).toHaveLength(1);
    expect(olderListed.items[0]).toMatchObject({ name: 'Nails', quantity: 7, scanned: false });
    expect(Object.keys(olderListed).sort()).toEqual(['created', 'id', 'items', 'name']);

    const byName = ids(await call('GET', `${LISTS}?ordering=name&page_size=100`, session));
    expect(byName.indexOf(newer)).toBeLessThan(byName.indexOf(older));
    const byNameDesc = ids(await call('GET', `${LISTS}?ordering=-name&page_size=100`, session));
    expect(byNameDesc.indexOf(older)).toBeLessThan(byNameDesc.indexOf(newer));
    const oldestFirst = await call('GET', `${LISTS}?ordering=created&page_size=100`, session);
    expect(ids(oldestFirst)).toEqual([...ids(page)].reverse());
    const unknown = await call('GET', `${LISTS}?ordering=owner`, session);
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body)).toEqual(['ordering']);
  });

  it('to_ckeckin=True keeps lists with no cart and items; False keeps exactly the others', async () => {
    const session = await ctx.login('bruno');
    const cart = await newCart(session);
    const emptyFree = await createList(session, 'empty, no cart');
    const fullFree = await createList(session, 'items, no cart');
    await addItem(session, fullFree);
    const fullLinked = await createList(session, 'items, cart');
    await addItem(session, fullLinked);
    const emptyLinked = await createList(session, 'empty, cart');
    for (const list of [fullLinked, emptyLinked]) {
      expect((await call('PATCH', `${LISTS}${list}/`, session, { cart })).status).toBe(200);
    }
    const mine = [emptyFree, fullFree, fullLinked, emptyLinked];
    const pick = async (query: string) => {
      const answer = await call('GET', `${LISTS}?page_size=100${query}`, session);
      expect(answer.status, query).toBe(200);
      return ids(answer);
    };
    const all = await pick('');
    for (const yes of ['True', 'true', '1']) {
      const kept = await pick(`&to_ckeckin=${yes}`);
      expect(kept.filter((id) => mine.includes(id))).toEqual([fullFree]);
    }
    for (const no of ['False', 'false', '0']) {
      const kept = await pick(`&to_ckeckin=${no}`);
      expect(kept.filter((id) => mine.includes(id)).sort()).toEqual(
        [emptyFree, fullLinked, emptyLinked].sort(),
      );
      // The complement: together with True, every list exactly once.
      const readyOnes = await pick('&to_ckeckin=True');
      expect([...kept, ...readyOnes].sort()).toEqual([...all].sort());
    }
    for (const bad of ['yes', 'TRUE', '', '2']) {
      const answer = await call('GET', `${LISTS}?to_ckeckin=${bad}`, session);
      expect(answer.status, bad).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['to_ckeckin']);
    }
  });

  it('pages with absolute links that keep the filter; past the end is 404', async () => {
    const session = await ctx.login('bruno');
    for (let i = 0; i < 3; i++) await addItem(session, await createList(session, `P${i}`));
    const first = await call('GET', `${LISTS}?to_ckeckin=True&page_size=2`, session);
    expect(first.status).toBe(200);
    expect(first.body.results).toHaveLength(2);
    expect(first.body.count).toBeGreaterThanOrEqual(3);
    const next = new URL(first.body.next);
    expect(next.origin).toBe(ctx.url);
    expect(next.searchParams.get('to_ckeckin')).toBe('True');
    expect(next.searchParams.get('page')).toBe('2');
    const second = await call('GET', next.pathname + next.search, session);
    expect(second.status).toBe(200);
    expect(ids(second).some((id) => ids(first).includes(id))).toBe(false);
    const past = await call('GET', `${LISTS}?page=999`, session);
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.', code: 'not_found' });
  });

  it('costs the same number of queries for one list and a full page of full lists', async () => {
    const session = await ctx.login('bruno');
    await createList(session, 'first');
    const cost = async () => {
      const before = ctx.database.queries;
      const answer = await call('GET', LISTS, session);
      expect(answer.status).toBe(200);
      return ctx.database.queries - before;
    };
    const few = await cost();
    for (let i = 0; i < 20; i++) {
      const list = await createList(session, `full ${i}`);
      for (const name of ['a', 'b', 'c']) await addItem(session, list, name);
    }
    const full = await cost();
    expect(full).toBe(few);
    // Token user, count, the page of lists, their items.
    expect(full).toBeLessThanOrEqual(4);
  });
});

describe('shopping list items', () => {
  it('POST answers 201 with exactly the item fields; scanned may be given', async () => {
    const list = await createList(anna, 'Items');
    ctx.clock.set('2026-03-02T09:30:00.000042Z');
    const answer = await call('POST', ITEMS, anna, {
      shopping_list: list,
      name: '  Wood glue ',
      quantity: 3,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(Number),
      name: 'Wood glue',
      quantity: 3,
      scanned: false,
      created: '2026-03-02T09:30:00.000042Z',
    });
    const scanned = await call('POST', ITEMS, anna, {
      shopping_list: list,
      name: 'Tape',
      quantity: 1,
      scanned: true,
    });
    expect(scanned.body.scanned).toBe(true);
    // Same name twice: two items, nothing merged.
    await addItem(anna, list, 'Wood glue', 2);
    const fetched = await call('GET', `${LISTS}${list}/`, anna);
    expect(fetched.body.items).toHaveLength(3);
  });

  it('validates the create body', async () => {
    const list = await createList(anna, 'Validation');
    const ok = { shopping_list: list, name: 'X', quantity: 1 };
    const cases: [unknown, string][] = [
      [{ ...ok, quantity: 0 }, 'quantity'],
      [{ ...ok, quantity: 1_000_001 }, 'quantity'],
      [{ ...ok, quantity: 1.5 }, 'quantity'],
      [{ ...ok, quantity: '3' }, 'quantity'],
      [{ ...ok, quantity: null }, 'quantity'],
      [{ shopping_list: list, name: 'X' }, 'quantity'],
      [{ ...ok, name: '' }, 'name'],
      [{ ...ok, name: '   ' }, 'name'],
      [{ ...ok, name: 'x'.repeat(201) }, 'name'],
      [{ shopping_list: list, quantity: 1 }, 'name'],
      [{ ...ok, scanned: 'yes' }, 'scanned'],
      [{ ...ok, scanned: null }, 'scanned'],
      [{ name: 'X', quantity: 1 }, 'shopping_list'],
      [{ ...ok, shopping_list: 'abc' }, 'shopping_list'],
      [{ ...ok, shopping_list: null }, 'shopping_list'],
      [{ ...ok, shopping_list: 0 }, 'shopping_list'],
      [{ ...ok, shopping_list: -1 }, 'shopping_list'],
      [{ ...ok, shopping_list: 2 ** 31 }, 'shopping_list'],
      [{ ...ok, shopping_list: 99_999_999 }, 'shopping_list'],
    ];
    for (const [body, field] of cases) {
      const answer = await call('POST', ITEMS, anna, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body), JSON.stringify(body)).toEqual([field]);
    }
    const missing = await call('POST', ITEMS, anna, { ...ok, shopping_list: 99_999_999 });
    expect(missing.body).toEqual({
      shopping_list: ['Invalid pk "99999999" - object does not exist.'],
    });
    expect((await call('GET', `${LISTS}${list}/`, anna)).body.items).toEqual([]);
    const limits = await call('POST', ITEMS, anna, {
      ...ok,
      name: 'x'.repeat(200),
      quantity: 1_000_000,
    });
    expect(limits.status).toBe(201);
  });

  it('PATCH changes name, quantity and scanned; shopping_list is ignored', async () => {
    const list = await createList(anna, 'Patch');
    const other = await createList(anna, 'Other');
    const item = await addItem(anna, list, 'Bolts', 5);
    const path = `${ITEMS}${item.id}/`;
    const steps: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ name: ' M8 bolts ' }, { name: 'M8 bolts', quantity: 5, scanned: false }],
      [{ quantity: 1_000_000 }, { name: 'M8 bolts', quantity: 1_000_000, scanned: false }],
      [{ scanned: true }, { name: 'M8 bolts', quantity: 1_000_000, scanned: true }],
      [
        { name: 'Nuts', quantity: 2, scanned: false, shopping_list: other },
        { name: 'Nuts', quantity: 2, scanned: false },
      ],
      [{}, { name: 'Nuts', quantity: 2, scanned: false }],
    ];
    for (const [body, expected] of steps) {
      const answer = await call('PATCH', path, anna, body);
      expect(answer.status, JSON.stringify(body)).toBe(200);
      expect(answer.body).toEqual({ id: item.id, created: expect.any(String), ...expected });
      expect((await call('GET', path, anna)).body).toEqual(answer.body);
    }
    const inOther = await call('GET', `${ITEMS}?shopping_list=${other}`, anna);
    expect(inOther.body.count).toBe(0);
  });

  it('validates PATCH fields and keeps the item on 400', async () => {
    const item = await addItem(anna, await createList(anna, 'Patch validation'), 'Keep', 9);
    const path = `${ITEMS}${item.id}/`;
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: ' ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ quantity: 0 }, 'quantity'],
      [{ quantity: 1_000_001 }, 'quantity'],
      [{ quantity: 2.5 }, 'quantity'],
      [{ quantity: null }, 'quantity'],
      [{ scanned: 'true' }, 'scanned'],
      [{ scanned: 1 }, 'scanned'],
    ];
    for (const [body, field] of cases) {
      const answer = await call('PATCH', path, anna, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body), JSON.stringify(body)).toEqual([field]);
    }
    expect((await call('GET', path, anna)).body).toMatchObject({
      name: 'Keep',
      quantity: 9,
      scanned: false,
    });
  });

  it('DELETE answers 204 and the item is gone', async () => {
    const list = await createList(anna, 'Delete item');
    const keep = await addItem(anna, list, 'Keep');
    const drop = await addItem(anna, list, 'Drop');
    const answer = await call('DELETE', `${ITEMS}${drop.id}/`, anna);
    expect(answer.status).toBe(204);
    expect((await call('GET', `${ITEMS}${drop.id}/`, anna)).status).toBe(404);
    expect((await call('DELETE', `${ITEMS}${drop.id}/`, anna)).status).toBe(404);
    const fetched = await call('GET', `${LISTS}${list}/`, anna);
    expect(fetched.body.items.map((i: { id: number }) => i.id)).toEqual([keep.id]);
  });

  it('GET lists the user’s items oldest first, filtered by shopping_list', async () => {
    const first = await createList(anna, 'Filter 1');
    const second = await createList(anna, 'Filter 2');
    ctx.clock.set('2026-03-02T09:40:00Z');
    const a = await addItem(anna, first, 'a');
    ctx.clock.set('2026-03-02T09:40:01Z');
    const b = await addItem(anna, second, 'b');
    ctx.clock.set('2026-03-02T09:40:02Z');
    const c = await addItem(anna, first, 'c');
    const filtered = await call('GET', `${ITEMS}?shopping_list=${first}`, anna);
    expect(filtered.status).toBe(200);
    expect(filtered.body.count).toBe(2);
    expect(ids(filtered)).toEqual([a.id, c.id]);
    expect(Object.keys(filtered.body.results[0]).sort()).toEqual([
      'created',
      'id',
      'name',
      'quantity',
      'scanned',
    ]);
    const all = await call('GET', `${ITEMS}?page_size=100`, anna);
    const owned = await ctx.database.db
      .select({ id: shoppingListItems.id })
      .from(shoppingListItems)
      .innerJoin(shoppingLists, eq(shoppingLists.id, shoppingListItems.shoppingListId))
      .where(eq(shoppingLists.userId, anna.userId));
    expect(all.body.count).toBe(owned.length);
    expect(ids(all)).toContain(b.id);
    for (const bad of ['abc', '-1', '1.5']) {
      const answer = await call('GET', `${ITEMS}?shopping_list=${bad}`, anna);
      expect(answer.status, bad).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['shopping_list']);
    }
  });
});

describe('permission matrix', () => {
  type Caller = 'anonymous' | 'owner' | 'other customer' | 'staff' | 'admin';
  const callers: Caller[] = ['anonymous', 'owner', 'other customer', 'staff', 'admin'];

  async function sessionOf(caller: Caller): Promise<Session | undefined> {
    if (caller === 'anonymous') return undefined;
    if (caller === 'owner') return anna;
    if (caller === 'other customer') return bruno;
    return carlaAs(caller);
  }

  // Fresh objects of anna's for each caller, so a DELETE by the owner harms no other cell.
  async function fixture() {
    const list = await createList(anna, 'Matrix');
    const item = await addItem(anna, list, 'Matrix item', 2);
    const cart = await newCart(anna);
    return { list, item: item.id, cart };
  }

  // [what, expected status per caller (in `callers` order), request]
  type Cell = (
    session: Session | undefined,
    f: Awaited<ReturnType<typeof fixture>>,
  ) => Promise<Answer>;
  const rows: [string, number[], Cell][] = [
    ['GET lists', [401, 200, 200, 200, 200], (s) => call('GET', LISTS, s)],
    ['POST lists', [401, 201, 201, 201, 201], (s) => call('POST', LISTS, s, { name: 'n' })],
    ['GET list', [401, 200, 404, 404, 404], (s, f) => call('GET', `${LISTS}${f.list}/`, s)],
    [
      'PATCH list',
      [401, 200, 404, 404, 404],
      (s, f) => call('PATCH', `${LISTS}${f.list}/`, s, { name: 'hijacked' }),
    ],
    ['DELETE list', [401, 204, 404, 404, 404], (s, f) => call('DELETE', `${LISTS}${f.list}/`, s)],
    ['GET items', [401, 200, 200, 200, 200], (s) => call('GET', ITEMS, s)],
    [
      'POST item into the list',
      [401, 201, 400, 400, 400],
      (s, f) => call('POST', ITEMS, s, { shopping_list: f.list, name: 'n', quantity: 1 }),
    ],
    ['GET item', [401, 200, 404, 404, 404], (s, f) => call('GET', `${ITEMS}${f.item}/`, s)],
    [
      'PATCH item',
      [401, 200, 404, 404, 404],
      (s, f) => call('PATCH', `${ITEMS}${f.item}/`, s, { quantity: 99 }),
    ],
    ['DELETE item', [401, 204, 404, 404, 404], (s, f) => call('DELETE', `${ITEMS}${f.item}/`, s)],
    [
      "PATCH caller's own list with the cart",
      [401, 200, 400, 400, 400],
      async (s, f) => {
        if (!s) return call('PATCH', `${LISTS}${f.list}/`, s, { cart: f.cart });
        const own = s === anna ? f.list : await createList(s, 'own');
        return call('PATCH', `${LISTS}${own}/`, s, { cart: f.cart });
      },
    ],
  ];

  for (const [what, expected, request] of rows) {
    it(what, async () => {
      for (const [index, caller] of callers.entries()) {
        const f = await fixture();
        const session = await sessionOf(caller);
        const answer = await request(session, f);
        expect(answer.status, `${what} as ${caller}`).toBe(expected[index]);
        if (answer.status === 401) {
          expect(answer.body.code).toBe('not_authenticated');
        }
        if (answer.status === 404) {
          expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
        }
        if (answer.status === 400) {
          expect(Object.keys(answer.body)).toHaveLength(1);
          expect(['shopping_list', 'cart']).toContain(Object.keys(answer.body)[0]);
        }
        // Nothing of anna's changed or vanished for anyone but anna.
        if (caller !== 'owner') {
          const list = await call('GET', `${LISTS}${f.list}/`, anna);
          expect(list.status).toBe(200);
          expect(list.body.name).toBe('Matrix');
          expect(list.body.items).toEqual([
            expect.objectContaining({ id: f.item, name: 'Matrix item', quantity: 2 }),
          ]);
        }
      }
      await carlaAs('customer');
    });
  }

  it('lists show only the caller’s own lists and items, whatever the role', async () => {
    const f = await fixture();
    for (const caller of ['other customer', 'staff', 'admin'] as const) {
      const session = (await sessionOf(caller)) as Session;
      const lists = await call('GET', `${LISTS}?page_size=100`, session);
      expect(ids(lists), caller).not.toContain(f.list);
      const owners = await ctx.database.db
        .select({ userId: shoppingLists.userId })
        .from(shoppingLists)
        .where(inArray(shoppingLists.id, ids(lists).length > 0 ? ids(lists) : [-1]));
      expect(
        owners.every((o) => o.userId === session.userId),
        caller,
      ).toBe(true);
      const items = await call('GET', `${ITEMS}?shopping_list=${f.list}`, session);
      expect(items.status).toBe(200);
      expect(items.body.count, caller).toBe(0);
    }
    await carlaAs('customer');
    const own = await call('GET', `${ITEMS}?shopping_list=${f.list}`, anna);
    expect(ids(own)).toEqual([f.item]);
  });
});
