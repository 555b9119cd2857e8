import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';

/**
 * ASVS 6.3.1: password guessing is bounded per account over a day, not only per minute.
 * Wrong passwords count in PostgreSQL per account and client address (AUTH_FAILURES_PER_DAY)
 * and per account from all addresses (AUTH_ACCOUNT_FAILURES_PER_DAY); beyond, every login of
 * the account is 429 with Retry-After until 24 hours after the first counted failure; a
 * successful login does not count. The per-minute limit is off here (0), so only the daily
 * bounds answer 429. Behind a proxy (TRUST_PROXY) so tests speak from several addresses.
 */

const PER_ADDRESS = 5;
const PER_ACCOUNT = 8;
const DAY_SECONDS = 24 * 3600;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({
    env: {
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      AUTH_FAILURES_PER_DAY: String(PER_ADDRESS),
      AUTH_ACCOUNT_FAILURES_PER_DAY: String(PER_ACCOUNT),
      TRUST_PROXY: 'true',
    },
  });
});
afterAll(() => ctx?.close());

const login = (username: string, password: string, from = '203.0.113.1'): Promise<Answer> =>
  ctx.request('POST', '/api/v1/auth/jwt/token/', {
    body: { username, password },
    headers: { 'x-forwarded-for': from },
  });

const wrong = (username: string, from?: string) => login(username, 'not-the-password', from);
const right = (username: string, from?: string) => login(username, PASSWORDS[username], from);

function expectBounded(answer: Answer): void {
  expect(answer.status, answer.text).toBe(429);
  expect(answer.body).toEqual({ detail: expect.any(String), code: 'throttled' });
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(DAY_SECONDS);
}

describe('wrong passwords per account over a day', () => {
  it(`${PER_ADDRESS} wrong passwords from one address, then that address is refused for the account, the right password too`, async () => {
    for (let i = 0; i < PER_ADDRESS; i++) expect((await wrong('anna')).status).toBe(400);
    expectBounded(await wrong('anna'));
    expectBounded(await right('anna'));
    // Another address, another account: not affected.
    expect((await right('anna', '198.51.100.7')).status).toBe(200);
    expect((await wrong('anna', '198.51.100.7')).status).toBe(400);
    expect((await right('bruno')).status).toBe(200);
  });

  it('the window ends 24 hours after the first counted failure', async () => {
    ctx.clock.advance(DAY_SECONDS - 60);
    const answer = await right('anna');
    expectBounded(answer);
    expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    ctx.clock.advance(61);
    expect((await right('anna')).status).toBe(200);
    expect((await wrong('anna')).status).toBe(400);
  });

  it(`${PER_ACCOUNT} wrong passwords from all addresses close the account everywhere`, async () => {
    for (let i = 0; i < PER_ACCOUNT; i++) {
      expect((await wrong('carla', `192.0.2.${i + 1}`)).status).toBe(400);
    }
    expectBounded(await wrong('carla', '192.0.2.200'));
    expectBounded(await right('carla', '192.0.2.201'));
  });

  it('an IPv6 client counts by its /64: other addresses of the line share its budget', async () => {
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await wrong('dora', `2001:db8:1:2::${i + 1}`)).status).toBe(400);
    }
    expectBounded(await wrong('dora', '2001:db8:1:2:ffff::9'));
  });

  it('successful logins do not count', async () => {
    // anna's window started afresh above (one failure so far, from another address).
    const from = '203.0.113.9';
    for (let i = 0; i < PER_ADDRESS - 1; i++) expect((await wrong('anna', from)).status).toBe(400);
    for (let i = 0; i < 2 * PER_ADDRESS; i++) expect((await right('anna', from)).status).toBe(200);
    expect((await wrong('anna', from)).status).toBe(400);
    expectBounded(await wrong('anna', from));
  });

  it('many concurrent wrong logins never pass the bound: exactly the budget reaches the ERP', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => wrong('fritz')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(PER_ADDRESS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - PER_ADDRESS);
  });

  it('the concurrent bound across addresses: exactly the account budget reaches the ERP', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => wrong('gina', `198.18.0.${i + 1}`)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(PER_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - PER_ACCOUNT);
  });

  it("logout-all's password check spends the same budget", async () => {
    const session = await ctx.login('bruno');
    for (let i = 0; i < PER_ADDRESS; i++) {
      const answer = await ctx.request('POST', '/api/v1/users/me/logout-all/', {
        token: session.token,
        body: { password: 'not-the-password' },
        headers: { 'x-forwarded-for': '203.0.113.50' },
      });
      expect(answer.status, answer.text).toBe(400);
    }
    expectBounded(await right('bruno', '203.0.113.50'));
  });
});
