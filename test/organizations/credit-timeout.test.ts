import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';

// A short timeout of its own, so a slow upstream is met quickly.
let ctx: TestContext;
let anna: Session;

beforeAll(async () => {
  ctx = await startTestApp({ env: { UPSTREAM_TIMEOUT_MS: '300' } });
  anna = await ctx.login('anna');
});
afterAll(() => ctx?.close());

it('credit-check answers 504 when upstream is slower than the timeout', async () => {
  const check = () =>
    ctx.request('GET', '/api/v1/credit-check/ORG-1001/', {
      token: anna.token,
      headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
    });
  ctx.sim.inject('credit', { type: 'delay', ms: 600 });
  const slow = await check();
  expect(slow.status).toBe(504);
  expect(slow.body).toEqual({ detail: expect.any(String), code: 'upstream_timeout' });
  expect((await check()).body).toEqual({ credit: true });
});
