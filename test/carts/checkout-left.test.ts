import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { cartWith, createStore } from '../helpers/fixtures.js';
import { until } from '../helpers/wait.js';

/**
 * A phone that loses its connection during a checkout whose order is already upstream:
 * the order is placed, so the record is stored all the same (a retry answers it).
 */
let ctx: TestContext;
let anna: Session;
beforeAll(async () => {
  ctx = await startTestApp();
  await createStore(ctx, '4000000000011');
  anna = await ctx.login('anna');
});
afterAll(() => ctx?.close());

it('records a checkout whose client left while its order was upstream', async () => {
  const cart = await cartWith(ctx, anna, { store: '4000000000011' });
  ctx.sim.inject('orders', { type: 'delay', ms: 300 });
  const controller = new AbortController();
  const request = fetch(`${ctx.url}/api/v1/carts/${cart}/checkout/`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${anna.token}` },
    signal: controller.signal,
  }).catch(() => 'aborted');
  await until(() => ctx.sim.calls.some((c) => c.route === 'orders'), 'the order upstream');
  controller.abort();
  expect(await request).toBe('aborted');
  await until(async () => {
    const answer = await ctx.request('GET', `/api/v1/carts/${cart}/`, { token: anna.token });
    return answer.body.checkout !== null;
  }, 'the checkout record');
  const retry = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
    token: anna.token,
  });
  expect(retry.status).toBe(200);
  expect(ctx.sim.calls.filter((c) => c.route === 'orders')).toHaveLength(1);
});
