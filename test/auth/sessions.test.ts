import { createSigner } from 'fast-jwt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser } from '../helpers/fixtures.js';
import { codeIn, linkIn, type SmtpReceiver, startSmtpReceiver } from '../mail/smtp.js';
import { issueCode, refused, wsUrl } from '../notifications/client.js';

/**
 * A token never outlives the password that issued it: after a password change, or a reset
 * by either restore variant or the restore page, every token issued before (access and
 * refreshed alike) is refused, and a new login works.
 */

let ctx: TestContext;
let smtp: SmtpReceiver;
const SECRET = 'test-secret-test-secret-test-secret';
const ENDED = 'Session ended (password changed or reset): log in again.';

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  ctx = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com' } });
  for (const name of ['hanna', 'ivo', 'jana', 'kurt', 'lena', 'mira']) {
    addSimUser(ctx, name, { email: `${name}@example.com` });
  }
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});
afterEach(() => ctx.sim.clearFaults());

const simUser = (username: string) => ctx.sim.data.users.find((u) => u.username === username)!;
const me = (token: string) => ctx.request('GET', '/api/v1/users/me/', { token });
const refresh = (token: string) =>
  ctx.request('POST', '/api/v1/auth/jwt/refresh/', { body: { token } });
const logIn = (username: string, password: string) =>
  ctx.request('POST', '/api/v1/auth/jwt/token/', { body: { username, password } });

/** Two sessions of the user (two logins) and a refreshed token of the first. */
async function sessionsOf(username: string) {
  const first = await ctx.login(username);
  const second = await ctx.login(username);
  const refreshed = await refresh(first.token);
  expect(refreshed.status).toBe(200);
  for (const token of [first.token, second.token, refreshed.body.token]) {
    expect((await me(token)).status).toBe(200);
  }
  return { first, tokens: [first.token, second.token, refreshed.body.token as string] };
}

/** Every token is refused on use (401) and on refresh (400); a login with `password` works. */
async function expectEnded(tokens: string[], username: string, password: string) {
  for (const token of tokens) {
    const used = await me(token);
    expect(used.status).toBe(401);
    expect(used.body).toEqual({ detail: ENDED, code: 'token_not_valid' });
    const refreshed = await refresh(token);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toEqual({ non_field_errors: [ENDED] });
  }
  const login = await logIn(username, password);
  expect(login.status).toBe(200);
  expect((await me(login.body.token)).status).toBe(200);
  const again = await refresh(login.body.token);
  expect(again.status).toBe(200);
  expect((await me(again.body.token)).status).toBe(200);
}

async function mailTo(to: string, action: () => Promise<unknown>) {
  const seen = smtp.messages.filter((m) => m.to.includes(to)).length;
  await action();
  return smtp.next(to, seen);
}

describe('ending sessions with the password', () => {
  it('users/me/change-password/ ends every session issued before, the caller’s too', async () => {
    const { first, tokens } = await sessionsOf('hanna');
    // A connection code issued before is spent with the sessions.
    const code = await issueCode(ctx, first);
    const changed = await ctx.request('PATCH', '/api/v1/users/me/change-password/', {
      token: first.token,
      headers: { 'authorization-upstream': `Bearer ${first.upstreamToken}` },
      body: { password: PASSWORDS.hanna, new_password: 'hanna-new-pass-1' },
    });
    expect(changed.status).toBe(200);
    await expectEnded(tokens, 'hanna', 'hanna-new-pass-1');
    expect((await refused(wsUrl(ctx.url, code))).status).toBe(401);
  });

  it('a refused change (wrong current password) ends nothing', async () => {
    const { first, tokens } = await sessionsOf('ivo');
    const refused = await ctx.request('PATCH', '/api/v1/users/me/change-password/', {
      token: first.token,
      headers: { 'authorization-upstream': `Bearer ${first.upstreamToken}` },
      body: { password: 'not-the-password', new_password: 'ivo-new-pass-1' },
    });
    expect(refused.status).toBe(400);
    for (const token of tokens) expect((await me(token)).status).toBe(200);
  });

  it('a reset with the e-mailed code (variant A) ends every session issued before', async () => {
    const { tokens } = await sessionsOf('jana');
    const mail = await mailTo('jana@example.com', () =>
      ctx.request('POST', '/api/v1/request-restore-code/', { body: { username: 'jana' } }),
    );
    const reset = await ctx.request('POST', '/api/v1/restore-password/', {
      body: { username: 'jana', code: codeIn(mail), password: 'jana-new-pass-1' },
    });
    expect(reset.status).toBe(202);
    expect(simUser('jana').password).toBe('jana-new-pass-1');
    await expectEnded(tokens, 'jana', 'jana-new-pass-1');
  });

  it('a reset with the code of the link (variant B) ends every session issued before', async () => {
    const { tokens } = await sessionsOf('kurt');
    const mail = await mailTo('kurt@example.com', () =>
      ctx.request('POST', '/api/v1/request_restore_code/', { body: { email: 'kurt@example.com' } }),
    );
    const reset = await ctx.request('POST', '/api/v1/restore_password/', {
      body: {
        restore_password_code: linkIn(mail).code,
        password: 'kurt-new-pass-1',
        repeat_password: 'kurt-new-pass-1',
      },
    });
    expect(reset.status).toBe(201);
    await expectEnded(tokens, 'kurt', 'kurt-new-pass-1');
  });

  it('a reset on the HTML restore page ends every session issued before', async () => {
    const { tokens } = await sessionsOf('lena');
    const mail = await mailTo('lena@example.com', () =>
      ctx.request('POST', '/api/v1/request_restore_code/', { body: { email: 'lena@example.com' } }),
    );
    const page = await fetch(linkIn(mail).link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        password: 'lena-new-pass-1',
        repeat_password: 'lena-new-pass-1',
      }).toString(),
    });
    expect(page.status).toBe(200);
    await expectEnded(tokens, 'lena', 'lena-new-pass-1');
  });

  it('a token from before the `gen` claim counts as generation 0: valid until the first change', async () => {
    const session = await ctx.login('mira');
    const sign = createSigner({ key: SECRET, algorithm: 'HS256' });
    const now = Math.floor(ctx.clock.nowMicros() / 1_000_000);
    const legacy = sign({
      sub: String(session.userId),
      username: 'mira',
      iat: now,
      exp: now + 600,
      orig_iat: now,
      jti: 'legacy',
    });
    expect((await me(legacy)).status).toBe(200);
    const refreshed = await refresh(legacy);
    expect(refreshed.status).toBe(200);
    const changed = await ctx.request('PATCH', '/api/v1/users/me/change-password/', {
      token: session.token,
      headers: { 'authorization-upstream': `Bearer ${session.upstreamToken}` },
      body: { password: PASSWORDS.mira, new_password: 'mira-new-pass-1' },
    });
    expect(changed.status).toBe(200);
    await expectEnded([legacy, refreshed.body.token], 'mira', 'mira-new-pass-1');
    // A forged generation is not a way around it: the claim is signed, a bad one is invalid.
    const bad = sign({
      sub: String(session.userId),
      username: 'mira',
      iat: now,
      exp: now + 600,
      orig_iat: now,
      jti: 'x',
      gen: -1,
    });
    expect((await me(bad)).body.code).toBe('token_not_valid');
  });
});
