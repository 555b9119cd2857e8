import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import {
  type Answer,
  PASSWORDS,
  type Session,
  startTestApp,
  type TestContext,
} from '../helpers/app.js';
import {
  cartWith,
  checkout as checkoutAs,
  createStore,
  organizationsOf,
  postItem,
} from '../helpers/fixtures.js';
import { until } from '../helpers/wait.js';

// Issue 7 §6: orders hung at the ERP must not starve logins and catalogue calls, and an
// order still waiting for a connection when its time is up is known not to have been sent.
const N = 4; // UPSTREAM_CONNECTIONS_ORDERS
const TIMEOUT_MS = 4_000; // an order waits for a connection at most half of it
const GLN = DEMO_STORE_GLNS[0];

let ctx: TestContext;
let anna: Session;
let organization: string;

beforeAll(async () => {
  ctx = await startTestApp({
    env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), UPSTREAM_CONNECTIONS_ORDERS: String(N) },
  });
  await createStore(ctx, GLN);
  anna = await ctx.login('anna');
  [organization] = await organizationsOf(ctx, anna.userId);
});
afterAll(async () => {
  ctx?.sim.release();
  await ctx?.close();
});

let poSeq = 0;
async function newCart(): Promise<{ id: number; po: string }> {
  const po = `HUNG-${++poSeq}`;
  const fields = { organization, store: GLN, customer_order_number: po };
  return { id: await cartWith(ctx, anna, fields, [['10001234', 1]]), po };
}

const addItem = (cartId: number, partNumber: string) => postItem(ctx, anna, cartId, partNumber);
const checkout = (cartId: number) => checkoutAs(ctx, anna, cartId);

/** The answer and how long it took. */
async function timed(pending: Promise<Answer>): Promise<{ answer: Answer; ms: number }> {
  const started = performance.now();
  const answer = await pending;
  return { answer, ms: performance.now() - started };
}

const orderCalls = () => ctx.sim.calls.filter((c) => c.route === 'orders').length;
const ordersOf = (po: string) => ctx.sim.orders.filter((o) => o.body.customer_order_number === po);

it('N+1 orders hung at the ERP: a login and a product call still answer at once', async () => {
  const carts = await Promise.all(Array.from({ length: N + 1 }, () => newCart()));
  const last = carts[N];
  const before = orderCalls();
  ctx.sim.inject('orders', { type: 'hang' }, N);
  try {
    // N orders hang at the ERP, holding every orders connection…
    const held = carts.slice(0, N).map((cart) => timed(checkout(cart.id)));
    await until(() => orderCalls() - before === N, 'N orders at the ERP', 10_000, 5);
    // …and the next one waits for a connection.
    const queued = timed(checkout(last.id));
    await until(() => ctx.deps.upstream.stats().orders.queued === 1, 'an order queued', 10_000, 5);

    const login = await timed(
      ctx.request('POST', '/api/v1/auth/jwt/token/', {
        body: { username: 'bruno', password: PASSWORDS.bruno },
      }),
    );
    expect(login.answer.status, login.answer.text).toBe(200);
    expect(login.ms).toBeLessThan(1_000);
    const product = await timed(
      ctx.request('GET', '/api/v1/products/10001234/', {
        token: anna.token,
        headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
      }),
    );
    expect(product.answer.status, product.answer.text).toBe(200);
    expect(product.ms).toBeLessThan(1_000);

    // The queued order gives up after half the timeout, unsent: 504, and its cart is not
    // frozen, since no order can have been placed for it.
    const { answer, ms } = await queued;
    expect(answer.status, answer.text).toBe(504);
    expect(answer.body).toMatchObject({ code: 'upstream_timeout' });
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS / 2 - 100);
    expect(ms).toBeLessThan(TIMEOUT_MS);
    expect(orderCalls() - before).toBe(N);
    expect(ordersOf(last.po)).toHaveLength(0);
    expect((await addItem(last.id, 'P-AFTER')).status).toBe(201);

    // The ERP comes back before the held orders time out: each of them is answered.
    ctx.sim.release();
    for (const { answer } of await Promise.all(held)) {
      expect(answer.status, answer.text).toBe(200);
    }
  } finally {
    ctx.sim.release();
  }

  // The queued cart is checked out now, with the line added after the 504.
  const retried = await checkout(last.id);
  expect(retried.status, retried.text).toBe(200);
  expect(ordersOf(last.po)[0].body.lines.map((l) => l.part_number)).toEqual([
    '10001234',
    'P-AFTER',
  ]);

  // Exactly once: one order per cart, and checking out again answers it and places nothing.
  const calls = orderCalls();
  for (const cart of carts) {
    const orders = ordersOf(cart.po);
    expect(orders).toHaveLength(1);
    const again = await checkout(cart.id);
    expect(again.status, again.text).toBe(200);
    expect(again.body.order_id).toBe(orders[0].order_id);
    expect(again.body.order_number).toBe(orders[0].order_number);
  }
  expect(orderCalls()).toBe(calls);
  expect(ctx.deps.upstream.stats().orders).toEqual({ active: 0, queued: 0 });
});
