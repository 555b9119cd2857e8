import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkedOutCart } from '../controls/fixtures.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { connect } from './client.js';

/** A port nothing listens on: Redis is configured but down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let ctx: TestContext;
let anna: Session;

beforeAll(async () => {
  ctx = await startTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
  anna = await ctx.login('anna');
});
afterAll(() => ctx?.close());

it('with Redis down, requests still answer and local sockets still get their events', async () => {
  const socket = await connect(ctx, anna);
  const cart = await checkedOutCart(ctx, anna, null);
  const message = await socket.next();
  expect(message.type).toBe('cart.checked_out');
  expect(message.data.cart).toBe(cart);
  socket.close();
});
