import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { createStore, organizationsOf, startTestApp, type TestContext } from '../helpers/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  await createStore(ctx, DEMO_STORE_GLNS[0]);
});
afterAll(() => ctx?.close());

describe('purchase flow', () => {
  it('logs in, creates a cart, adds and merges items, checks out', async () => {
    const anna = await ctx.login('anna');
    const [org] = await organizationsOf(ctx, anna.userId);
    const cart = await ctx.request('POST', '/api/v1/carts/', {
      token: anna.token,
      body: {
        store: DEMO_STORE_GLNS[0],
        organization: org,
        customer_order_number: 'PO-1',
        order_mark: '',
      },
    });
    expect(cart.status, cart.text).toBe(201);
    const add = (q: number) =>
      ctx.request('POST', '/api/v1/items/', {
        token: anna.token,
        body: { cart: cart.body.id, part_number: 'P-1', quantity: q },
      });
    expect((await add(2)).body.quantity).toBe(2);
    expect((await add(3)).body.quantity).toBe(5);
    const list = await ctx.request('GET', '/api/v1/carts/', { token: anna.token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.results[0].total_quantity).toBe(5);
    const checkout = await ctx.request('PATCH', `/api/v1/carts/${cart.body.id}/checkout/`, {
      token: anna.token,
    });
    expect(checkout.status, checkout.text).toBe(200);
    expect(ctx.sim.orders).toHaveLength(1);
  });
});
