import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { RedisStore } from '../../src/protections/counters.js';
import { Throttle } from '../../src/protections/throttle.js';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { capturingLog } from '../helpers/log.js';
import { freePort, redisServerAvailable, ThrowawayRedis } from '../helpers/redis-server.js';
import { until } from '../helpers/wait.js';

/**
 * The login rate limit over a Redis of the test's own that comes up late, is killed, is
 * restarted and hangs: meanwhile the limit holds on this instance's own counts (answers
 * promptly, refusals included), and once Redis is back the shared counters count again.
 */
if (!redisServerAvailable) {
  console.log('Rate-limit outage tests skipped: redis-server is not on PATH.');
}

const LIMIT = 2;
/** A login counted in the process must not wait for more than the store's timeout (2 s) and a bit. */
const PROMPT_MS = 3000;
/** How long after Redis answers again the counters must count. */
const RECOVERY_BOUND_MS = 10_000;

describe.skipIf(!redisServerAvailable)('login rate limit through Redis outages', () => {
  let redis: ThrowawayRedis;
  let ctx: TestContext;
  let probe: Redis;

  async function login(): Promise<{ status: number; ms: number }> {
    const started = Date.now();
    const answer = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'anna', password: PASSWORDS.anna },
    });
    return { status: answer.status, ms: Date.now() - started };
  }

  /**
   * In a fresh window the limit holds on this process's counts: LIMIT logins pass, the next
   * is refused, each promptly. Answers the milliseconds of the slowest.
   */
  async function holdsInProcess(): Promise<number> {
    ctx.clock.advance(60);
    let slowest = 0;
    for (let i = 0; i <= LIMIT; i++) {
      const { status, ms } = await login();
      expect(status).toBe(i < LIMIT ? 200 : 429);
      expect(ms).toBeLessThan(PROMPT_MS);
      slowest = Math.max(slowest, ms);
    }
    return slowest;
  }

  /**
   * Logs in until a login was counted in Redis (bounded); then, in a fresh window, the
   * limit holds again. Answers the milliseconds until the first counted login.
   */
  async function countsAgain(): Promise<number> {
    const started = Date.now();
    await until(
      async () => {
        ctx.clock.advance(60);
        expect((await login()).status).toBe(200);
        return (await probe.keys('ordering:throttle:*')).length > 0;
      },
      'a login counted in Redis',
      RECOVERY_BOUND_MS,
      100,
    );
    const ms = Date.now() - started;
    ctx.clock.advance(60);
    for (let i = 0; i < LIMIT; i++) expect((await login()).status).toBe(200);
    const refused = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'anna', password: PASSWORDS.anna },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('throttled');
    return ms;
  }

  beforeAll(async () => {
    redis = new ThrowawayRedis(await freePort());
    // Started before Redis: the store's first connection fails.
    ctx = await startTestApp({
      env: { REDIS_URL: redis.url, AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) },
    });
    probe = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 100 });
    probe.on('error', () => {});
  });
  afterAll(async () => {
    await ctx?.close();
    probe?.disconnect();
    redis?.resume();
    await redis?.stop();
  });

  it('with Redis not started yet, the limit holds in the process; once it is up, Redis counts', async () => {
    await holdsInProcess();
    await redis.start();
    const ms = await countsAgain();
    console.log(`rate limit counting ${ms} ms after a late Redis start`);
  });

  for (const [how, signal] of [
    ['killed (SIGKILL)', 'SIGKILL'],
    ['shut down cleanly (SIGTERM)', 'SIGTERM'],
  ] as const) {
    it(`with Redis ${how}, the limit holds in the process; once Redis is back, it counts`, async () => {
      // A login counted in Redis, then Redis goes: this instance's count of the window stays.
      ctx.clock.advance(60);
      expect((await login()).status).toBe(200);
      await redis.stop(signal);
      for (let i = 1; i < LIMIT; i++) expect((await login()).status).toBe(200);
      expect((await login()).status).toBe(429);
      await holdsInProcess();
      await redis.start(); // empty: no persistence
      const ms = await countsAgain();
      console.log(`rate limit counting ${ms} ms after Redis was ${how} and started again`);
    });
  }

  it('with Redis hanging (SIGSTOP), the limit holds in the process after the store timeout, not later', async () => {
    redis.pause();
    try {
      const ms = await holdsInProcess();
      console.log(`slowest login with Redis hanging: ${ms} ms`);
    } finally {
      redis.resume();
    }
    await probe.flushall();
    const ms = await countsAgain();
    console.log(`rate limit counting ${ms} ms after Redis resumed`);
  });

  it('logs an outage of the counters once, and their return once', async () => {
    const { log, lines } = capturingLog();
    const clock = new ManualClock();
    const throttle = new Throttle(new RedisStore(redis.url, 'test:log:', log), 1e9, clock, log);
    const said = (text: string) => lines.filter((line) => line.msg.includes(text)).length;
    try {
      await throttle.check(['k']);
      await redis.stop('SIGKILL');
      for (let i = 0; i < 5; i++) await throttle.check(['k']);
      await redis.start();
      await until(
        async () => {
          await throttle.check(['k']);
          return said('available again') > 0;
        },
        'the counters are back',
        RECOVERY_BOUND_MS,
        100,
      );
      await throttle.check(['k']);
      expect(said('rate-limit counters unavailable')).toBe(1);
      expect(said('rate-limit counters available again')).toBe(1);
      expect(said('rate-limit Redis error')).toBeLessThanOrEqual(1);
    } finally {
      await throttle.close();
    }
  });
});
