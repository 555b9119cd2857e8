import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { carts } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createCart, createStore } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;

beforeAll(async () => {
  ctx = await startTestApp();
  await createStore(ctx, DEMO_STORE_GLNS[0]);
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await ctx.loginAs('carla', 'staff');
});
afterAll(() => ctx?.close());

const newCart = (session: Session) =>
  createCart(ctx, session, { store: DEMO_STORE_GLNS[0], customer_order_number: 'PO' });

const add = (session: Session, body: Record<string, unknown>) =>
  ctx.request('POST', '/api/v1/items/', { token: session.token, body });

async function cartRow(id: number) {
  const [row] = await ctx.database.db.select().from(carts).where(eq(carts.id, id));
  return row;
}

describe('POST items/', () => {
  it('adds a line and answers 201 with it', async () => {
    const cart = await newCart(anna);
    ctx.clock.set('2026-03-02T09:05:00.000007Z');
    const answer = await add(anna, { cart, part_number: 'PN-1', quantity: 3 });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(Number),
      cart,
      part_number: 'PN-1',
      quantity: 3,
      created: '2026-03-02T09:05:00.000007Z',
    });
    const row = await cartRow(cart);
    expect(row.lastActivity).toContain('09:05:00.000007');
  });

  it('merges the same part number into its line and answers the merged line', async () => {
    const cart = await newCart(anna);
    const first = await add(anna, { cart, part_number: 'PN-2', quantity: 2 });
    const second = await add(anna, { cart, part_number: 'PN-2', quantity: 5 });
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.quantity).toBe(7);
    const row = await cartRow(cart);
    expect([row.itemsCount, row.totalQuantity]).toEqual([1, 7]);
  });

  it('50 concurrent adds of one part number give one line with the summed quantity', async () => {
    const cart = await newCart(anna);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        add(anna, { cart, part_number: 'CONC-1', quantity: i + 1 }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    const lines = await ctx.request('GET', `/api/v1/items/?cart=${cart}`, { token: anna.token });
    expect(lines.body.count).toBe(1);
    expect(lines.body.results[0].quantity).toBe((50 * 51) / 2);
    const row = await cartRow(cart);
    expect([row.itemsCount, row.totalQuantity]).toEqual([1, 1275]);
    // Each answer is the line as it stood after that add: all different, the last is the total.
    expect(new Set(answers.map((a) => a.body.quantity)).size).toBe(50);
    expect(Math.max(...answers.map((a) => a.body.quantity))).toBe(1275);
  });

  it('concurrent adds of different part numbers keep the counters exact', async () => {
    const cart = await newCart(anna);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        add(anna, { cart, part_number: `P-${i % 5}`, quantity: 2 }),
      ),
    );
    const row = await cartRow(cart);
    expect([row.itemsCount, row.totalQuantity]).toEqual([5, 40]);
  });

  it('validates quantity and part_number', async () => {
    const cart = await newCart(anna);
    const cases: [Record<string, unknown>, string][] = [
      [{ cart, part_number: 'X', quantity: 0 }, 'quantity'],
      [{ cart, part_number: 'X', quantity: 1_000_001 }, 'quantity'],
      [{ cart, part_number: 'X', quantity: 1.5 }, 'quantity'],
      [{ cart, part_number: 'X', quantity: '3' }, 'quantity'],
      [{ cart, part_number: '', quantity: 1 }, 'part_number'],
      [{ cart, part_number: '   ', quantity: 1 }, 'part_number'],
      [{ cart, part_number: 'X'.repeat(65), quantity: 1 }, 'part_number'],
      [{ cart, part_number: null, quantity: 1 }, 'part_number'],
      [{ part_number: 'X', quantity: 1 }, 'cart'],
    ];
    for (const [body, field] of cases) {
      const answer = await add(anna, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body), JSON.stringify(body)).toEqual([field]);
    }
    expect(
      (await add(anna, { cart, part_number: 'X'.repeat(64), quantity: 1_000_000 })).status,
    ).toBe(201);
  });

  it('refuses a merge past 1,000,000 and keeps the line as it was', async () => {
    const cart = await newCart(anna);
    await add(anna, { cart, part_number: 'BIG', quantity: 999_999 });
    const over = await add(anna, { cart, part_number: 'BIG', quantity: 2 });
    expect(over.status).toBe(400);
    expect(Object.keys(over.body)).toEqual(['quantity']);
    const row = await cartRow(cart);
    expect(row.totalQuantity).toBe(999_999);
  });

  it("refuses another user's cart (also for staff) and an unknown cart with 400 on cart", async () => {
    const cart = await newCart(anna);
    for (const session of [bruno, staff]) {
      const answer = await add(session, { cart, part_number: 'X', quantity: 1 });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['cart']);
    }
    const unknown = await add(anna, { cart: 999999, part_number: 'X', quantity: 1 });
    expect(unknown.status).toBe(400);
    expect((await cartRow(cart)).itemsCount).toBe(0);
  });

  it('refuses items for a checked-out cart with 400', async () => {
    const cart = await newCart(anna);
    await add(anna, { cart, part_number: 'X', quantity: 1 });
    const checkout = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(checkout.status).toBe(200);
    const answer = await add(anna, { cart, part_number: 'Y', quantity: 1 });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body)).toEqual(['cart']);
  });
});

describe('GET, PATCH and DELETE items/', () => {
  it('lists the lines of a cart, paged; only the owner’s and, for staff, all', async () => {
    const cart = await newCart(anna);
    for (const p of ['A', 'B', 'C']) await add(anna, { cart, part_number: p, quantity: 1 });
    const mine = await ctx.request('GET', `/api/v1/items/?cart=${cart}`, { token: anna.token });
    expect(mine.status).toBe(200);
    expect(mine.body.count).toBe(3);
    expect(mine.body.results.map((i: { part_number: string }) => i.part_number)).toEqual([
      'A',
      'B',
      'C',
    ]);
    const other = await ctx.request('GET', `/api/v1/items/?cart=${cart}`, { token: bruno.token });
    expect(other.body.count).toBe(0);
    const asStaff = await ctx.request('GET', `/api/v1/items/?cart=${cart}`, { token: staff.token });
    expect(asStaff.body.count).toBe(3);
    const bad = await ctx.request('GET', '/api/v1/items/?cart=abc', { token: anna.token });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['cart']);
  });

  it('changes a quantity and removes a line, keeping the cart counters', async () => {
    const cart = await newCart(anna);
    const a = await add(anna, { cart, part_number: 'A', quantity: 4 });
    await add(anna, { cart, part_number: 'B', quantity: 6 });
    ctx.clock.advance(60);
    const patched = await ctx.request('PATCH', `/api/v1/items/${a.body.id}/`, {
      token: anna.token,
      body: { quantity: 10 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.quantity).toBe(10);
    let row = await cartRow(cart);
    expect([row.itemsCount, row.totalQuantity]).toEqual([2, 16]);
    const removed = await ctx.request('DELETE', `/api/v1/items/${a.body.id}/`, {
      token: anna.token,
    });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    row = await cartRow(cart);
    expect([row.itemsCount, row.totalQuantity]).toEqual([1, 6]);
    expect(
      (await ctx.request('DELETE', `/api/v1/items/${a.body.id}/`, { token: anna.token })).status,
    ).toBe(404);
    const zero = await ctx.request('PATCH', `/api/v1/items/${a.body.id}/`, {
      token: anna.token,
      body: { quantity: 0 },
    });
    expect(zero.status).toBe(400);
  });

  it('another user can neither change nor delete a line (404)', async () => {
    const cart = await newCart(anna);
    const line = await add(anna, { cart, part_number: 'A', quantity: 4 });
    for (const session of [bruno, staff]) {
      expect(
        (
          await ctx.request('PATCH', `/api/v1/items/${line.body.id}/`, {
            token: session.token,
            body: { quantity: 1 },
          })
        ).status,
      ).toBe(404);
      expect(
        (await ctx.request('DELETE', `/api/v1/items/${line.body.id}/`, { token: session.token }))
          .status,
      ).toBe(404);
    }
    expect((await cartRow(cart)).totalQuantity).toBe(4);
  });
});
