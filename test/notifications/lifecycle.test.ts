import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Notifier } from '../../src/notifications/notifier.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { connect } from './client.js';

/** Heartbeats every 100 ms here (30 s in service). */
const HEARTBEAT_MS = 100;

let ctx: TestContext;
let anna: Session;
let closed = false;

beforeAll(async () => {
  ctx = await startTestApp({ notifier: new Notifier({ heartbeatMs: HEARTBEAT_MS }) });
  anna = await ctx.login('anna');
});
afterAll(async () => {
  if (!closed) await ctx?.close();
});

it('drops a connection that stops answering pings, and keeps one that answers', async () => {
  const live = await connect(ctx, anna);
  const dead = await connect(ctx, anna, { autoPong: false });
  let pings = 0;
  live.socket.on('ping', () => {
    pings += 1;
  });
  expect(ctx.deps.notifier!.count(anna.userId)).toBe(2);
  // Terminated without a close frame: the client sees an abnormal closure.
  expect(await dead.closed).toBe(1006);
  expect(ctx.deps.notifier!.count(anna.userId)).toBe(1);
  expect(pings).toBeGreaterThanOrEqual(1);
  expect(live.socket.readyState).toBe(WebSocket.OPEN);
  // The live one keeps answering through more beats.
  await expect.poll(() => pings, { timeout: 5000, interval: HEARTBEAT_MS }).toBeGreaterThan(3);
  expect(live.socket.readyState).toBe(WebSocket.OPEN);
  live.close();
  await live.closed;
});

it('closes every connection with 1001 (going away) when the app closes', async () => {
  const first = await connect(ctx, anna);
  const second = await connect(ctx, anna);
  closed = true;
  await ctx.close();
  expect(await first.closed).toBe(1001);
  expect(await second.closed).toBe(1001);
});
