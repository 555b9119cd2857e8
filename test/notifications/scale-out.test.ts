import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/deps.js';
import { Notifier } from '../../src/notifications/notifier.js';
import { PASSWORDS, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { checkedOutCart } from '../helpers/fixtures.js';
import { type Client, issueCode, open, wsUrl } from './client.js';

/**
 * Two instances of the service over one database (PostgreSQL with TEST_DATABASE_URL, else
 * the embedded one, shared in this process) and one Redis: what one instance does reaches
 * the WebSockets of the other, and the login rate limit counts across both.
 */
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) console.log('Redis scale-out tests skipped: TEST_REDIS_URL is not set.');

const LIMIT = 4;

describe.skipIf(!redisUrl)('two instances sharing Redis', () => {
  let ctx: TestContext;
  let second: App;
  let secondUrl: string;
  let anna: Session;
  const clients: Client[] = [];

  beforeAll(async () => {
    // Own channel: other test runs on the same Redis have users with the same ids.
    const channel = `ordering:notifications:test:${randomUUID()}`;
    const env = { REDIS_URL: redisUrl!, AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    ctx = await startTestApp({ env, notifier: new Notifier({ redisUrl, channel }) });
    // Own rate-limit window (counters live in Redis, keyed by the minute of the clock).
    ctx.clock.advance(randomInt(1, 1_000_000) * 60);
    const notifier = new Notifier({ redisUrl, channel });
    second = await buildApp({ ...ctx.deps, notifier }, { logger: false });
    await second.listen({ host: '127.0.0.1', port: 0 });
    const address = second.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    secondUrl = `http://127.0.0.1:${address.port}`;
    await Promise.all([ctx.deps.notifier!.ready(), notifier.ready()]);
    anna = await ctx.login('anna');
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await second?.close();
    await ctx?.close();
  });

  it('delivers an event of one instance to a WebSocket on the other, once', async () => {
    // The code is issued by the first instance and spent on the second: codes are shared.
    const remote = await open(wsUrl(secondUrl, await issueCode(ctx, anna)));
    const local = await open(wsUrl(ctx.url, await issueCode(ctx, anna)));
    clients.push(remote, local);
    const first = await checkedOutCart(ctx, anna, { store: null });
    const next = await checkedOutCart(ctx, anna, { store: null });
    for (const client of [remote, local]) {
      const message = await client.next();
      expect(message.type).toBe('cart.checked_out');
      expect(message.data.cart).toBe(first);
      // The publishing instance does not hear its own message back from Redis.
      expect((await client.next()).data.cart).toBe(next);
    }
  });

  it('counts login attempts of both instances against one limit', async () => {
    const login = (baseUrl: string) =>
      fetch(`${baseUrl}/api/v1/auth/jwt/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bruno', password: PASSWORDS.bruno }),
      });
    // Both counter connections are up (a counter that cannot count lets the request through).
    expect((await login(ctx.url)).status).toBe(200);
    expect((await login(secondUrl)).status).toBe(200);
    ctx.clock.advance(60); // a fresh window
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      statuses.push((await login(i % 2 === 0 ? ctx.url : secondUrl)).status);
    }
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    const over = await login(secondUrl);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(ctx.url)).status).toBe(429);
  });
});
