import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { startTestApp, type TestContext } from '../helpers/app.js';
import { checkout, createCart, createStore, postItem } from '../helpers/fixtures.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  await createStore(ctx, DEMO_STORE_GLNS[0]);
});
afterAll(() => ctx?.close());

describe('purchase flow', () => {
  it('logs in, creates a cart, adds and merges items, checks out', async () => {
    const anna = await ctx.login('anna');
    const cart = await createCart(ctx, anna, { store: DEMO_STORE_GLNS[0] });
    const add = (q: number) => postItem(ctx, anna, cart, 'P-1', q);
    expect((await add(2)).body.quantity).toBe(2);
    expect((await add(3)).body.quantity).toBe(5);
    const list = await ctx.request('GET', '/api/v1/carts/', { token: anna.token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.results[0].total_quantity).toBe(5);
    const done = await checkout(ctx, anna, cart);
    expect(done.status, done.text).toBe(200);
    expect(ctx.sim.orders).toHaveLength(1);
  });
});
