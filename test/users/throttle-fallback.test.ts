import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { sample } from '../helpers/metrics.js';
import { closedPort } from '../mail/smtp.js';

// REDIS_URL points where no Redis listens: the limits count in this process instead (one
// instance's counts), so stopping Redis does not lift them; the log and /metrics say so.
const TOKEN = 'fallback-metrics-token-0123456789';
let ctx: TestContext;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const port = await closedPort();
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  ctx = await startTestApp({
    logStream,
    env: {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      AUTH_RATE_LIMIT_PER_MINUTE: '2',
      METRICS_TOKEN: TOKEN,
    },
  });
});
afterAll(() => ctx?.close());

const login = () =>
  ctx.request('POST', '/api/v1/auth/jwt/token/', {
    body: { username: 'anna', password: PASSWORDS.anna },
  });
const restore = () =>
  ctx.request('POST', '/api/v1/request-restore-code/', { body: { username: 'anna' } });
const metrics = async () => {
  const answer = await ctx.request('GET', '/metrics', {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return (name: string) => sample(answer.text, name);
};

it('with Redis unreachable, login and restore are limited in this process (not let through)', async () => {
  ctx.clock.set('2026-03-10T10:00:15Z');
  for (let i = 0; i < 2; i++) {
    expect((await login()).status).toBe(200);
    expect((await restore()).status).toBe(202);
  }
  const refused = await login();
  expect(refused.status).toBe(429);
  expect(refused.body.code).toBe('throttled');
  expect(refused.headers.get('retry-after')).toBe('45');
  expect((await restore()).status).toBe(429);

  const figures = await metrics();
  expect(figures('ordering_rate_limit_fallback')).toBe(1);
  expect(figures('ordering_rate_limit_fallback_checks_total')).toBe(6);
  const said = lines.filter((l) => String(l.msg).startsWith('rate-limit counters unavailable'));
  expect(said.map((l) => [l.level, l.msg])).toEqual([
    [40, 'rate-limit counters unavailable: counting in this process until they are back'],
  ]);

  // The next minute starts afresh, in this process too.
  ctx.clock.advance(45);
  expect((await login()).status).toBe(200);
});
