import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Notifier } from '../../src/notifications/notifier.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { type Client, connect } from './client.js';

/**
 * The heartbeat: the timer as the service wires it (every 100 ms here, 30 s in service), and
 * beats at chosen moments, so that a live client's pong is known to have arrived before the
 * next beat (under load a 100 ms timer can beat before it does).
 */

/** Resolves once the server has read everything the client sent before (a ping's pong). */
function roundTrip(client: Client): Promise<void> {
  return new Promise((resolve) => {
    client.socket.once('pong', () => resolve());
    client.socket.ping();
  });
}

describe('heartbeat timer', () => {
  let ctx: TestContext;
  let anna: Session;
  let closed = false;

  beforeAll(async () => {
    ctx = await startTestApp({ notifier: new Notifier({ heartbeatMs: 100 }) });
    anna = await ctx.login('anna');
  });
  afterAll(async () => {
    if (!closed) await ctx?.close();
  });

  it('drops a connection that stops answering pings', async () => {
    const dead = await connect(ctx, anna, { autoPong: false });
    expect(ctx.deps.notifier!.count(anna.userId)).toBe(1);
    // Terminated without a close frame: the client sees an abnormal closure.
    expect(await dead.closed).toBe(1006);
    expect(ctx.deps.notifier!.count(anna.userId)).toBe(0);
  });

  it('closes every connection with 1001 (going away) when the app closes', async () => {
    const first = await connect(ctx, anna);
    const second = await connect(ctx, anna);
    closed = true;
    await ctx.close();
    expect(await first.closed).toBe(1001);
    expect(await second.closed).toBe(1001);
  });
});

describe('heartbeats at chosen moments', () => {
  let ctx: TestContext;
  let anna: Session;

  beforeAll(async () => {
    // The timer never beats within the test.
    ctx = await startTestApp({ notifier: new Notifier({ heartbeatMs: 3_600_000 }) });
    anna = await ctx.login('anna');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('keeps a connection that answers every ping and drops one that does not', async () => {
    const notifier = ctx.deps.notifier!;
    const live = await connect(ctx, anna);
    const dead = await connect(ctx, anna, { autoPong: false });
    let pings = 0;
    live.socket.on('ping', () => {
      pings += 1;
    });
    expect(notifier.count(anna.userId)).toBe(2);
    for (let beat = 1; beat <= 4; beat++) {
      const pinged = new Promise((resolve) => live.socket.once('ping', resolve));
      notifier.beat();
      await pinged;
      // The live client's pong went out before its ping: the server has read it.
      await roundTrip(live);
      if (beat === 1) expect(notifier.count(anna.userId)).toBe(2);
    }
    expect(await dead.closed).toBe(1006);
    expect(notifier.count(anna.userId)).toBe(1);
    expect(pings).toBe(4);
    expect(live.socket.readyState).toBe(WebSocket.OPEN);
    live.close();
    await live.closed;
  });
});
