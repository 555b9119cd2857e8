import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/deps.js';
import { type NotificationMessage, Notifier } from '../../src/notifications/notifier.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { checkedOutCart } from '../helpers/fixtures.js';
import { capturingLog } from '../helpers/log.js';
import {
  freePort,
  redisServerAvailable,
  refusingListener,
  ThrowawayRedis,
} from '../helpers/redis-server.js';
import { until } from '../helpers/wait.js';
import { type Client, connect } from './client.js';

/**
 * Two instances over one database and a Redis of the test's own that is down when they
 * start, comes up late, is killed and comes back, and is restarted cleanly: each time Redis
 * is back, events of one instance reach the WebSockets of the other again within seconds.
 */
if (!redisServerAvailable) console.log('Redis outage tests skipped: redis-server is not on PATH.');

/** How long after Redis answers again fan-out must work (both ways). */
const RECOVERY_BOUND_MS = 10_000;

const probe = (tag: string): NotificationMessage => ({
  type: 'control.created',
  data: { probe: tag },
  created: new Date().toISOString(),
});

/** Drops what the client received so far. */
async function drain(client: Client): Promise<void> {
  for (;;) {
    try {
      await client.next(1);
    } catch {
      return;
    }
  }
}

/**
 * Publishes probes to `userId` on `from` (every 100 ms) until `client`, a socket of the user
 * on the other instance, receives one; answers the milliseconds that took.
 */
async function fanOutWorks(
  from: Notifier,
  userId: number,
  client: Client,
  boundMs = RECOVERY_BOUND_MS,
): Promise<number> {
  await drain(client);
  const started = Date.now();
  for (let n = 0; Date.now() - started < boundMs; n++) {
    from.publish([userId], probe(`${started}:${n}`));
    try {
      const message = await client.next(100);
      if (message.data.probe) return Date.now() - started;
    } catch {
      // nothing yet: publish again
    }
  }
  throw new Error(`no event from the other instance within ${boundMs} ms`);
}

describe.skipIf(!redisServerAvailable)('two instances through Redis outages', () => {
  let redis: ThrowawayRedis;
  let ctx: TestContext;
  let second: App;
  let one: Notifier;
  let two: Notifier;
  const logs = [capturingLog(), capturingLog()];
  let anna: Session;
  let bruno: Session;
  /** anna on the second instance, bruno on the first: each hears only the other instance. */
  let annaOnTwo: Client;
  let brunoOnOne: Client;

  /** Fan-out both ways; the slower of the two directions, in ms. */
  async function bothWays(): Promise<number> {
    const [there, back] = await Promise.all([
      fanOutWorks(one, anna.userId, annaOnTwo),
      fanOutWorks(two, bruno.userId, brunoOnOne),
    ]);
    return Math.max(there, back);
  }

  const warnings = (index: number, role: string) =>
    logs[index].lines.filter((line) => line.level === 40 && line.redis === role).length;
  const held = (index: number) =>
    logs[index].lines.filter((line) => line.msg.includes('subscription holds again')).length;

  beforeAll(async () => {
    redis = new ThrowawayRedis(await freePort());
    const channel = `ordering:notifications:test:${randomUUID()}`;
    one = new Notifier({ redisUrl: redis.url, channel, log: logs[0].log });
    ctx = await startTestApp({ env: { REDIS_URL: redis.url }, notifier: one });
    two = new Notifier({ redisUrl: redis.url, channel, log: logs[1].log });
    second = await buildApp({ ...ctx.deps, notifier: two }, { logger: false });
    await second.listen({ host: '127.0.0.1', port: 0 });
    const address = second.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const secondUrl = `http://127.0.0.1:${address.port}`;
    anna = await ctx.login('anna');
    bruno = await ctx.login('bruno');
    annaOnTwo = await connect(ctx, anna, { baseUrl: secondUrl });
    brunoOnOne = await connect(ctx, bruno);
  });
  afterAll(async () => {
    annaOnTwo?.close();
    brunoOnOne?.close();
    await second?.close();
    await ctx?.close();
    await redis?.stop();
  });

  it('instances started while Redis is down get each other’s events once it is up', async () => {
    // Redis is not there yet: the four connections (publisher and subscriber of each
    // instance) are turned away until each has failed a few times, so the SUBSCRIBE issued
    // at start is long given up (ioredis drops it after maxRetriesPerRequest + 1 attempts).
    const placeholder = await refusingListener(redis.port);
    await until(() => placeholder.connections >= 16, 'clients retried during the outage');
    await placeholder.close();
    let ready = false;
    void one.ready().then(() => {
      ready = true;
    });
    // Meanwhile the instances answer, and events reach their own sockets.
    const cart = await checkedOutCart(ctx, bruno, { store: null });
    expect((await brunoOnOne.next()).data.cart).toBe(cart);
    expect(ready).toBe(false);

    await redis.start();
    const ms = await bothWays();
    console.log(`fan-out back ${ms} ms after a late Redis start`);
    expect(ms).toBeLessThan(RECOVERY_BOUND_MS);
    await Promise.all([one.ready(), two.ready()]);
    expect(ready).toBe(true);
    // A real event of the first instance reaches anna on the second.
    await drain(annaOnTwo);
    const next = await checkedOutCart(ctx, anna, { store: null });
    const message = await annaOnTwo.next();
    expect(message.type).toBe('cart.checked_out');
    expect(message.data.cart).toBe(next);
    for (const index of [0, 1]) {
      expect(warnings(index, 'subscriber')).toBe(1);
      expect(warnings(index, 'publisher')).toBe(1);
      expect(held(index)).toBe(1);
    }
  });

  for (const [how, signal] of [
    ['killed (SIGKILL)', 'SIGKILL'],
    ['shut down cleanly (SIGTERM)', 'SIGTERM'],
  ] as const) {
    it(`instances that live through Redis being ${how} and started again get each other’s events again`, async () => {
      expect(await bothWays()).toBeLessThan(RECOVERY_BOUND_MS);
      const before = logs.map((_, index) => [
        warnings(index, 'subscriber'),
        warnings(index, 'publisher'),
        held(index),
      ]);
      await redis.stop(signal);
      await until(
        () => [0, 1].every((index) => warnings(index, 'subscriber') > before[index][0]),
        'both instances noticed the outage',
      );
      // Down: local delivery goes on, publishing does not throw.
      const cart = await checkedOutCart(ctx, bruno, { store: null });
      expect((await brunoOnOne.next()).data.cart).toBe(cart);
      for (let i = 0; i < 5; i++) one.publish([anna.userId], probe(`down:${i}`));

      await redis.start();
      const ms = await bothWays();
      console.log(`fan-out back ${ms} ms after Redis was ${how} and started again`);
      expect(ms).toBeLessThan(RECOVERY_BOUND_MS);
      await Promise.all([one.ready(), two.ready()]);
      // One warning per connection for the outage, one line when the subscription is back.
      for (const index of [0, 1]) {
        expect(warnings(index, 'subscriber')).toBe(before[index][0] + 1);
        expect(warnings(index, 'publisher')).toBe(before[index][1] + 1);
        expect(held(index)).toBe(before[index][2] + 1);
      }
    });
  }
});

describe.skipIf(!redisServerAvailable)('a SUBSCRIBE that Redis refuses', () => {
  let redis: ThrowawayRedis;
  let admin: Redis;
  const notifiers: Notifier[] = [];

  beforeAll(async () => {
    redis = new ThrowawayRedis(await freePort());
    await redis.start();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    for (const notifier of notifiers) await notifier.close();
    admin?.disconnect();
    await redis?.stop();
  });

  it('is retried with backoff on the same connection until it holds', async () => {
    // The connection is up, but SUBSCRIBE is refused (NOPERM) until the ACL allows it.
    await admin.call('ACL', 'SETUSER', 'default', '-subscribe');
    const { log, lines } = capturingLog();
    const channel = `ordering:notifications:test:${randomUUID()}`;
    const notifier = new Notifier({ redisUrl: redis.url, channel, log });
    notifiers.push(notifier);
    await until(() => lines.some((line) => line.level >= 40), 'the refused SUBSCRIBE is logged');
    await admin.call('ACL', 'SETUSER', 'default', '+subscribe');
    const started = Date.now();
    await notifier.ready();
    expect(Date.now() - started).toBeLessThan(RECOVERY_BOUND_MS);
    // Another instance's event arrives.
    const sent: string[] = [];
    const socket = {
      readyState: 1,
      bufferedAmount: 0,
      send: (text: string) => sent.push(text),
      on() {},
      close() {},
    };
    notifier.add(7, socket as unknown as WebSocket);
    const publisher = new Notifier({ redisUrl: redis.url, channel });
    notifiers.push(publisher);
    await publisher.ready();
    publisher.publish([7], probe('after the refusal'));
    await until(() => sent.length > 0, 'the event of the other notifier arrives');
    expect(JSON.parse(sent[0]).data.probe).toBe('after the refusal');
    expect(lines.filter((line) => line.msg.includes('subscription holds again'))).toHaveLength(1);
  });
});
