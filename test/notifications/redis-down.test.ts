import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { checkedOutCart } from '../helpers/fixtures.js';
import { freePort as closedPort } from '../helpers/process.js';
import { connect } from './client.js';

let ctx: TestContext;
let anna: Session;

beforeAll(async () => {
  ctx = await startTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
  anna = await ctx.login('anna');
});
afterAll(() => ctx?.close());

it('with Redis down, requests still answer and local sockets still get their events', async () => {
  const socket = await connect(ctx, anna);
  const cart = await checkedOutCart(ctx, anna, { store: null });
  const message = await socket.next();
  expect(message.type).toBe('cart.checked_out');
  expect(message.data.cart).toBe(cart);
  socket.close();
});
