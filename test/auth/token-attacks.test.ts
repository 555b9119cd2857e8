import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers/app.js';

/**
 * Forged tokens as an attacker writes them (ASVS 5.0 9.1.1-9.1.3, 9.2.1): every one is 401,
 * and unknown body fields (mass assignment, ASVS 15.3.3 / API3) change nothing.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sign = (header: unknown, claims: unknown, key: string) => {
  const body = `${b64(header)}.${b64(claims)}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
};

describe('forged tokens', () => {
  it('alg none, another algorithm, another secret, tampered claims, no exp, jwk/kid headers: 401', async () => {
    const anna = await ctx.login('anna');
    const carla = await ctx.loginAs('carla', 'admin');
    const [header, payload, signature] = anna.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const asCarla = { ...claims, sub: String(carla.userId), username: 'carla' };
    const { exp: _exp, ...noExp } = claims;
    const forged: Record<string, string> = {
      none: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(asCarla)}.`,
      NONE: `${b64({ alg: 'NONE', typ: 'JWT' })}.${b64(asCarla)}.`,
      hs512Header: `${b64({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`,
      otherSecret: sign({ alg: 'HS256', typ: 'JWT' }, asCarla, 'x'.repeat(32)),
      tampered: `${header}.${b64(asCarla)}.${signature}`,
      noExp: `${header}.${b64(noExp)}.${signature}`,
      jwk: `${b64({ alg: 'HS256', typ: 'JWT', jwk: { kty: 'oct', k: 'AAAA' } })}.${payload}.${signature}`,
      kid: `${b64({ alg: 'HS256', typ: 'JWT', kid: '../../dev/null' })}.${payload}.${signature}`,
      emptyKeyHmac: sign({ alg: 'HS256', typ: 'JWT' }, asCarla, ''),
    };
    for (const [what, token] of Object.entries(forged)) {
      const answer = await ctx.request('GET', '/api/v1/audit-events/', { token });
      expect(answer.status, what).toBe(401);
      expect(answer.body.code, what).toBe('token_not_valid');
    }
    // The genuine token still works: the refusals are the forgeries'.
    expect((await ctx.request('GET', '/api/v1/users/me/', { token: anna.token })).status).toBe(200);
  });
});

describe('mass assignment', () => {
  it('unknown fields (user, is_staff, checked_out, id) in bodies are dropped', async () => {
    const anna = await ctx.login('anna');
    const bruno = await ctx.login('bruno');
    const created = await ctx.request('POST', '/api/v1/carts/', {
      token: anna.token,
      body: {
        store: null,
        organization: 'ORG-1001',
        customer_order_number: 'PO-1',
        order_mark: 'M',
        user: bruno.userId,
        id: 999_999,
        checked_out: true,
        is_staff: true,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.id).not.toBe(999_999);
    const mine = await ctx.request('GET', `/api/v1/carts/${created.body.id}/`, {
      token: anna.token,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.checkout).toBeNull();
    expect(
      (await ctx.request('GET', `/api/v1/carts/${created.body.id}/`, { token: bruno.token }))
        .status,
    ).toBe(404);
    const me = await ctx.request('GET', '/api/v1/users/me/', { token: anna.token });
    expect(me.body.is_staff).toBe(false);
  });
});
