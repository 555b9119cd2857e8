import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/deps.js';
import { Notifier, SESSION_ENDED_CLOSE } from '../../src/notifications/notifier.js';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { type Client, issueCode, open, wsUrl } from '../notifications/client.js';

/**
 * A socket opened by a session that has since been ended (password changed or reset,
 * logout-all) is closed with 4401 at once: before, it stayed open and kept receiving the
 * user's events for as long as the thief held it. With Redis the close reaches every
 * instance. Also: the routes that check the caller's password count on the login's limits.
 */

const LIMIT = 6;

describe('one instance', () => {
  let ctx: TestContext;
  const clients: Client[] = [];
  beforeAll(async () => {
    ctx = await startTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await ctx?.close();
  });

  it('a password change closes the open sockets of every earlier session, and only the user’s', async () => {
    ctx.clock.advance(60); // a rate-limit window of its own
    const thief = await ctx.login('anna');
    const owner = await ctx.login('anna');
    const other = await ctx.login('bruno');
    const stolen = await open(wsUrl(ctx.url, await issueCode(ctx, thief)));
    const bystander = await open(wsUrl(ctx.url, await issueCode(ctx, other)));
    clients.push(stolen, bystander);
    const changed = await ctx.request('PATCH', '/api/v1/users/me/change-password/', {
      token: owner.token,
      headers: { 'authorization-upstream': `Bearer ${owner.upstreamToken}` },
      body: { password: PASSWORDS.anna, new_password: 'anna-new-pass-2027' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await stolen.closed).toBe(SESSION_ENDED_CLOSE);
    expect(bystander.socket.readyState).toBe(bystander.socket.OPEN);
  });

  it('logout-all: the password again, then every token and socket of the user is gone', async () => {
    ctx.clock.advance(60);
    const stolen = await ctx.login('bruno');
    const owner = await ctx.login('bruno');
    const socket = await open(wsUrl(ctx.url, await issueCode(ctx, stolen)));
    clients.push(socket);
    // A stolen token alone cannot end the owner's sessions.
    const wrong = await ctx.request('POST', '/api/v1/users/me/logout-all/', {
      token: stolen.token,
      body: { password: 'not-the-password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.password).toEqual(expect.any(Array));
    expect(socket.socket.readyState).toBe(socket.socket.OPEN);
    const done = await ctx.request('POST', '/api/v1/users/me/logout-all/', {
      token: owner.token,
      body: { password: PASSWORDS.bruno },
    });
    expect(done.status, done.text).toBe(200);
    expect(await socket.closed).toBe(SESSION_ENDED_CLOSE);
    for (const token of [stolen.token, owner.token]) {
      expect((await ctx.request('GET', '/api/v1/users/me/', { token })).status).toBe(401);
      const refreshed = await ctx.request('POST', '/api/v1/auth/jwt/refresh/', { body: { token } });
      expect(refreshed.status).toBe(400);
    }
    // A new login works.
    expect((await ctx.login('bruno')).token).toEqual(expect.any(String));
  });

  it('a stolen session cannot guess the password through change-password or logout-all beyond the login limit', async () => {
    ctx.clock.advance(60);
    const stolen = await ctx.login('carla'); // the first of the minute's LIMIT
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const route =
        i % 2 === 0
          ? ctx.request('PATCH', '/api/v1/users/me/change-password/', {
              token: stolen.token,
              headers: { 'authorization-upstream': `Bearer ${stolen.upstreamToken}` },
              body: { password: `guess-${i}`, new_password: 'attacker-pass-2027' },
            })
          : ctx.request('POST', '/api/v1/users/me/logout-all/', {
              token: stolen.token,
              body: { password: `guess-${i}` },
            });
      statuses.push((await route).status);
    }
    expect(statuses.slice(0, LIMIT - 1)).toEqual(Array(LIMIT - 1).fill(400));
    expect(statuses.slice(LIMIT - 1)).toEqual([429, 429]);
    // The same counter as the login's: the account's logins are throttled too.
    const login = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'carla', password: 'another-guess' },
    });
    expect(login.status).toBe(429);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl)
  console.log('Sessions across instances with Redis skipped: TEST_REDIS_URL is not set.');

describe.skipIf(!redisUrl)('two instances sharing Redis', () => {
  let ctx: TestContext;
  let second: App;
  let secondUrl: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    const channel = `ordering:notifications:test:${randomUUID()}`;
    ctx = await startTestApp({
      env: { REDIS_URL: redisUrl! },
      notifier: new Notifier({ redisUrl, channel }),
    });
    const notifier = new Notifier({ redisUrl, channel });
    second = await buildApp({ ...ctx.deps, notifier }, { logger: false });
    await second.listen({ host: '127.0.0.1', port: 0 });
    const address = second.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    secondUrl = `http://127.0.0.1:${address.port}`;
    await Promise.all([ctx.deps.notifier!.ready(), notifier.ready()]);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await second?.close();
    await ctx?.close();
  });

  it('a password change on instance A closes the user’s socket on instance B', async () => {
    const anna = await ctx.login('anna');
    const remote = await open(wsUrl(secondUrl, await issueCode(ctx, anna)));
    clients.push(remote);
    const changed = await ctx.request('PATCH', '/api/v1/users/me/change-password/', {
      token: anna.token,
      headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
      body: { password: PASSWORDS.anna, new_password: 'anna-new-pass-2027' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await remote.closed).toBe(SESSION_ENDED_CLOSE);
  });
});
