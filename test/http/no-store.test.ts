import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Answer, PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { cartWith, checkout, postItem } from '../helpers/fixtures.js';

/**
 * Answers that hold a secret (tokens, connection codes, the restore page whose URL holds a
 * code) are never stored by a cache (RFC 6749 §5.1), and neither is any answer to an
 * authenticated request (ASVS 5.0 14.3.2): `Cache-Control: no-store` and `Pragma: no-cache`,
 * on success and on error alike. Public answers to requests without credentials keep theirs.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());
afterEach(() => {
  ctx.sim.clearFaults();
  vi.restoreAllMocks();
});

function expectNoStore(answer: Pick<Answer, 'headers' | 'status'>, what: string) {
  expect(answer.headers.get('cache-control'), `${what} (${answer.status})`).toBe('no-store');
  expect(answer.headers.get('pragma'), `${what} (${answer.status})`).toBe('no-cache');
}

function expectCacheable(answer: Pick<Answer, 'headers' | 'status'>, what: string) {
  expect(answer.headers.get('cache-control') ?? '', `${what} (${answer.status})`).not.toContain(
    'no-store',
  );
  expect(answer.headers.get('pragma'), `${what} (${answer.status})`).toBeNull();
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

interface Operation {
  method: string;
  path: string;
  /** The path with its parameters filled with `1`. */
  url: string;
  /** Behind a token (its security is not empty). */
  secured: boolean;
}

/** Every operation of the OpenAPI document. */
async function operations(): Promise<Operation[]> {
  const doc = (await ctx.request('GET', '/api/schema/')).body;
  const found: Operation[] = [];
  type Op = { security?: unknown[] };
  for (const [path, methods] of Object.entries<Record<string, Op>>(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      found.push({
        method: method.toUpperCase(),
        path,
        url: path.replace(/\{\w+\}/g, '1'),
        secured: (op.security ?? []).length > 0,
      });
    }
  }
  return found;
}

describe('answers to authenticated requests are not cacheable, whatever their status', () => {
  it('every operation of the OpenAPI document: as a customer, an admin, with a bad token, with none', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(40);
    expect(ops.filter((op) => op.secured).length).toBeGreaterThan(30);
    const customer = await ctx.login('anna');
    const admin = await ctx.loginAs('carla', 'admin');
    const statuses = new Set<number>();
    for (const { method, path, url, secured } of ops) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      // Behind a token, no credentials: the 401 is not stored either.
      if (secured) expectNoStore(await ctx.request(method, url, { body }), `${method} ${path}`);
      for (const [who, token] of [
        ['customer', customer.token],
        ['admin', admin.token],
        ['bad token', 'not-a-token'],
      ] as const) {
        const answer = await ctx.request(method, url, { token, body });
        statuses.add(answer.status);
        expectNoStore(answer, `${method} ${path} as ${who}`);
      }
      // The upstream token alone is a credential too.
      const upstreamOnly = await ctx.request(method, url, {
        body,
        headers: { 'authorization-upstream': `Bearer ${customer.upstreamToken}` },
      });
      expectNoStore(upstreamOnly, `${method} ${path} with Authorization-Upstream`);
    }
    // Successes and refusals alike: 200, 400, 401, 403 and 404 at the least.
    expect([...statuses]).toEqual(expect.arrayContaining([200, 400, 401, 403, 404]));
  });

  it('personal data: users/me/, carts/, a cart, its lines (200 and 201)', async () => {
    const anna = await ctx.login('anna');
    const cart = await cartWith(ctx, anna);
    const answers: [string, Answer][] = [
      ['users/me/', await ctx.request('GET', '/api/v1/users/me/', { token: anna.token })],
      ['carts/', await ctx.request('GET', '/api/v1/carts/', { token: anna.token })],
      ['a cart', await ctx.request('GET', `/api/v1/carts/${cart}/`, { token: anna.token })],
      ['items/', await ctx.request('GET', `/api/v1/items/?cart=${cart}`, { token: anna.token })],
      ['a new line', await postItem(ctx, anna, cart, 'P-2', 1)],
    ];
    for (const [what, answer] of answers) {
      expect(answer.status, what).toBeLessThan(300);
      expectNoStore(answer, what);
    }
  });

  it('errors: 401, 403, 404 of no route, 405, 409, 413, 415, 500, 502, 503, 504', async () => {
    const anna = await ctx.login('anna');
    const token = anna.token;
    const headers = { 'authorization-upstream': `Bearer ${anna.upstreamToken}` };
    const cart = await cartWith(ctx, anna);
    // The order placed, its answer spoilt: 502, and the lines stay frozen (409).
    ctx.sim.inject('orders', { type: 'malformed', after: true });
    const spoilt = await checkout(ctx, anna, cart);
    ctx.sim.inject('categories', { type: 'unavailable' });
    const unavailable = await ctx.request('GET', '/api/v1/categories/', { token, headers });
    ctx.sim.inject('categories', { type: 'delay', ms: 5000 });
    const late = await ctx.request('GET', '/api/v1/categories/', { token, headers });
    vi.spyOn(ctx.deps.upstream, 'categories').mockRejectedValueOnce(new Error('a bug'));
    const bug = await ctx.request('GET', '/api/v1/categories/', { token, headers });
    const answers: [number, Answer][] = [
      [401, await ctx.request('GET', '/api/v1/users/me/', { token: `${token}x` })],
      [403, await ctx.request('GET', '/api/v1/audit-events/', { token })],
      [404, await ctx.request('GET', '/api/v1/no-such-thing/', { token })],
      [404, await ctx.request('GET', '/api/v1/carts/999999/', { token })],
      // The router's own refusals, before any route is found (no hook runs for them).
      [404, await ctx.request('GET', '/api/v1/carts/%ZZ/', { token })],
      [404, await ctx.request('GET', `/api/v1/carts/${'x'.repeat(201)}/`, { token })],
      [405, await ctx.request('DELETE', '/api/v1/users/me/', { token })],
      [409, await postItem(ctx, anna, cart, 'P-3', 1)],
      [
        413,
        await ctx.request('POST', '/api/v1/carts/', {
          token,
          raw: `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`,
          headers: { 'content-type': 'application/json' },
        }),
      ],
      [
        415,
        await ctx.request('POST', '/api/v1/carts/', {
          token,
          raw: 'hello',
          headers: { 'content-type': 'text/plain' },
        }),
      ],
      [500, bug],
      [502, spoilt],
      [503, unavailable],
      [504, late],
    ];
    for (const [status, answer] of answers) {
      expect(answer.status, answer.text.slice(0, 200)).toBe(status);
      expectNoStore(answer, String(status));
    }
  });

  it('429: a rate-limited password route', async () => {
    const limited = await startTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const login = await limited.request('POST', '/api/v1/auth/jwt/token/', {
        body: { username: 'anna', password: PASSWORDS.anna },
      });
      const token = login.body.token as string;
      let answer: Answer | undefined;
      for (let i = 0; i < 3; i++) {
        answer = await limited.request('POST', '/api/v1/users/me/logout-all/', {
          token,
          body: { password: 'wrong-password' },
        });
        expectNoStore(answer, `logout-all ${i}`);
      }
      expect(answer!.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('routes outside the document (health, the schema, the docs, the console) with a token', async () => {
    const { token } = await ctx.login('anna');
    for (const path of ['/healthz', '/readyz', '/api/schema/', '/api/docs/', '/console/']) {
      expectNoStore(await ctx.request('GET', path, { token }), path);
    }
  });
});

describe('public answers to requests without credentials keep their caching', () => {
  it('options/, health, the schema, the docs, the console, a 404 of no route', async () => {
    for (const path of ['/api/v1/options/', '/healthz', '/api/schema/', '/api/docs/']) {
      const answer = await ctx.request('GET', path);
      expect(answer.status, path).toBe(200);
      expectCacheable(answer, path);
    }
    const consolePage = await ctx.request('GET', '/console/');
    if (consolePage.status === 200) {
      // The console's own policy: revalidated, not forbidden.
      expect(consolePage.headers.get('cache-control')).toBe('no-cache');
    }
    expectCacheable(await ctx.request('GET', '/no-such-thing/'), 'no route');
    expectCacheable(await ctx.request('GET', '/api/v1/carts/%ZZ/'), 'the router refusing');
  });
});
