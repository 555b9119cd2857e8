import { randomBytes, randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { RedisStore } from '../../src/protections/counters.js';
import { Throttle } from '../../src/protections/throttle.js';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';

const url = process.env.TEST_REDIS_URL;
if (!url) console.log('Redis rate-limit tests skipped: TEST_REDIS_URL is not set.');

describe.skipIf(!url)('rate-limit counters in Redis (REDIS_URL)', () => {
  let ctx: TestContext;
  let redis: Redis;
  // A minute of its own in a far year: runs never share a counter.
  const minute = Date.UTC(2040 + randomInt(0, 500), 0, 1) + randomInt(0, 500_000) * 60_000;

  beforeAll(async () => {
    ctx = await startTestApp({ env: { REDIS_URL: url!, AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
    redis = new Redis(url!);
  });
  afterAll(async () => {
    await ctx?.close();
    redis?.disconnect();
  });

  it('counts logins in Redis, shared by every instance, and refuses the 4th with 429', async () => {
    ctx.clock.set(new Date(minute + 20_000).toISOString());
    const window = Math.floor(minute / 60_000);
    for (let i = 0; i < 3; i++) {
      const answer = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
        body: { username: 'anna', password: PASSWORDS.anna },
      });
      expect(answer.status).toBe(200);
    }
    expect(await redis.get(`ordering:throttle:${window}:login:username:anna`)).toBe('3');
    const ttl = await redis.pttl(`ordering:throttle:${window}:login:username:anna`);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(100_000);
    const refused = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'anna', password: PASSWORDS.anna },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(refused.body.code).toBe('throttled');
  });

  it('two instances on one Redis share the counters (store level, random key prefix)', async () => {
    const prefix = `test:${randomBytes(8).toString('hex')}:`;
    const log = pino({ level: 'silent' });
    const clock = new ManualClock();
    const one = new Throttle(new RedisStore(url!, prefix, log), 2, clock, log);
    const two = new Throttle(new RedisStore(url!, prefix, log), 2, clock, log);
    try {
      await one.check(['k']);
      await two.check(['k']);
      await expect(one.check(['k'])).rejects.toMatchObject({ statusCode: 429 });
      clock.advance(60);
      await expect(two.check(['k'])).resolves.toBeUndefined();
    } finally {
      await one.close();
      await two.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  });
});
