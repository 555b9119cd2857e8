import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { closedPort } from '../mail/smtp.js';

// REDIS_URL points where no Redis listens: the limit must let requests through, not lock out.
let ctx: TestContext;

beforeAll(async () => {
  const port = await closedPort();
  ctx = await startTestApp({
    env: { REDIS_URL: `redis://127.0.0.1:${port}`, AUTH_RATE_LIMIT_PER_MINUTE: '1' },
  });
});
afterAll(() => ctx?.close());

it('with Redis unreachable, login and restore are not limited (fail open)', async () => {
  for (let i = 0; i < 3; i++) {
    const login = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'anna', password: PASSWORDS.anna },
    });
    expect(login.status).toBe(200);
    const restore = await ctx.request('POST', '/api/v1/request-restore-code/', {
      body: { username: 'anna' },
    });
    expect(restore.status).toBe(202);
  }
});
