import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';

/**
 * Answers that hold a secret (tokens, connection codes, the restore page whose URL holds a
 * code) are never stored by a cache (RFC 6749 §5.1): `Cache-Control: no-store` and
 * `Pragma: no-cache`, on success and on error alike.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

function expectNoStore(answer: Pick<Answer, 'headers' | 'status'>, what: string) {
  expect(answer.headers.get('cache-control'), what).toBe('no-store');
  expect(answer.headers.get('pragma'), what).toBe('no-cache');
}

describe('answers holding a secret are not cacheable', () => {
  it('login: the access token and the upstream tokens (200), and a refused login (400)', async () => {
    const ok = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'anna', password: PASSWORDS.anna },
    });
    expect(ok.status).toBe(200);
    expectNoStore(ok, 'login 200');
    const refused = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'anna', password: 'wrong-password' },
    });
    expect(refused.status).toBe(400);
    expectNoStore(refused, 'login 400');
  });

  it('refresh: the new token (200), and a refused refresh (400)', async () => {
    const { token } = await ctx.login('anna');
    const ok = await ctx.request('POST', '/api/v1/auth/jwt/refresh/', { body: { token } });
    expect(ok.status).toBe(200);
    expectNoStore(ok, 'refresh 200');
    const refused = await ctx.request('POST', '/api/v1/auth/jwt/refresh/', {
      body: { token: 'not-a-token' },
    });
    expect(refused.status).toBe(400);
    expectNoStore(refused, 'refresh 400');
  });

  it('the WebSocket connection code (201), and the same route refused (401)', async () => {
    const { token } = await ctx.login('anna');
    const ok = await ctx.request('POST', '/api/v1/websocket-notifications/groups/', { token });
    expect(ok.status).toBe(201);
    expect(ok.body.code).toEqual(expect.any(String));
    expectNoStore(ok, 'ws code 201');
    const refused = await ctx.request('POST', '/api/v1/websocket-notifications/groups/');
    expect(refused.status).toBe(401);
    expectNoStore(refused, 'ws code 401');
  });

  it('the HTML restore page, GET and POST, whatever the outcome', async () => {
    const path = `/users/restore-password/${'x'.repeat(43)}/`;
    const page = await ctx.request('GET', path);
    expect(page.status).toBe(404);
    expectNoStore(page, 'page GET');
    const posted = await ctx.request('POST', path, {
      raw: 'password=abcdefgh1&repeat_password=abcdefgh1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(400);
    expectNoStore(posted, 'page POST');
  });
});
