import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SimRoute } from '../../erp-simulator/faults.js';
import { DEMO_STORE_GLNS } from '../../erp-simulator/server.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';

// A short timeout of its own, so a slow upstream is met quickly.
let ctx: TestContext;
let anna: Session;

beforeAll(async () => {
  ctx = await startTestApp({ env: { UPSTREAM_TIMEOUT_MS: '300' } });
  anna = await ctx.login('anna');
});
afterAll(() => ctx?.close());

const cases: [SimRoute, string, boolean][] = [
  ['products.get', 'products/10001234/', true],
  ['products.price', 'products/10001234/price/', true],
  ['products.stock', `products/10001234/stock/?location_id=${DEMO_STORE_GLNS[0]}`, true],
  ['categories', 'categories/', true],
  ['categories', 'categories/', false],
];

it.each(cases)(
  '%s (%s, upstream token sent: %s) answers 504 when upstream is slower than the timeout',
  async (route, path, withToken) => {
    const headers: Record<string, string> = withToken
      ? { 'authorization-upstream': `Bearer ${anna.upstreamToken}` }
      : {};
    ctx.sim.inject(route, { type: 'delay', ms: 600 });
    const slow = await ctx.request('GET', `/api/v1/${path}`, { token: anna.token, headers });
    expect(slow.status).toBe(504);
    expect(slow.body).toEqual({ detail: expect.any(String), code: 'upstream_timeout' });
    const next = await ctx.request('GET', `/api/v1/${path}`, { token: anna.token, headers });
    expect(next.status).toBe(200);
  },
);
