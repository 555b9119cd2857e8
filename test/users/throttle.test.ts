import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { linkIn, type SmtpReceiver, startSmtpReceiver } from '../mail/smtp.js';

// Behind a proxy (TRUST_PROXY), so tests can speak from several client addresses.
let ctx: TestContext;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  ctx = await startTestApp({
    env: { AUTH_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true', SMTP_URL: smtp.url },
  });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});
// Each test starts in a fresh one-minute window.
beforeEach(() => ctx.clock.advance(60));

const from = (ip: string) => ({ 'x-forwarded-for': ip });

function login(ip: string, username: string, password = 'wrong-password') {
  return ctx.request('POST', '/api/v1/auth/jwt/token/', {
    body: { username, password },
    headers: from(ip),
  });
}

function post(ip: string, path: string, body: unknown) {
  return ctx.request('POST', `/api/v1/${path}`, { body, headers: from(ip) });
}

function expectThrottled(answer: { status: number; body: unknown; headers: Headers }) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ detail: expect.any(String), code: 'throttled' });
  expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
}

describe('login rate limit', () => {
  it('counts per client address: the 4th attempt in a minute is 429 with Retry-After', async () => {
    ctx.clock.set('2026-03-10T10:00:15Z');
    for (const username of ['u1', 'u2', 'u3']) {
      expect((await login('10.0.0.1', username)).status).toBe(400);
    }
    const refused = await login('10.0.0.1', 'anna', PASSWORDS.anna);
    expectThrottled(refused);
    expect(refused.headers.get('retry-after')).toBe('45');
    // Another address is not affected; the next minute starts afresh.
    expect((await login('10.0.0.2', 'u4')).status).toBe(400);
    ctx.clock.advance(45);
    expect((await login('10.0.0.1', 'anna', PASSWORDS.anna)).status).toBe(200);
  });

  it('counts per username, whatever the address (case and spaces ignored)', async () => {
    for (const [i, username] of ['bruno', 'Bruno', ' bruno '].entries()) {
      expect((await login(`10.1.0.${i}`, username)).status).toBe(400);
    }
    expectThrottled(await login('10.1.0.9', 'bruno', PASSWORDS.bruno));
    expect((await login('10.1.0.9', 'carla', PASSWORDS.carla)).status).toBe(200);
  });

  it('every attempt counts: successful and malformed ones too', async () => {
    expect((await login('10.2.0.1', 'anna', PASSWORDS.anna)).status).toBe(200);
    expect((await login('10.2.0.1', 'anna', PASSWORDS.anna)).status).toBe(200);
    const malformed = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 42 },
      headers: from('10.2.0.1'),
    });
    expect(malformed.status).toBe(400);
    expectThrottled(await login('10.2.0.1', 'anna', PASSWORDS.anna));
  });

  it('login and restore keep separate counters', async () => {
    for (const username of ['u1', 'u2', 'u3']) await login('10.3.0.1', username);
    expectThrottled(await login('10.3.0.1', 'u4'));
    expect((await post('10.3.0.1', 'request-restore-code/', { username: 'u5' })).status).toBe(202);

    for (const username of ['u1', 'u2', 'u3']) {
      await post('10.3.0.2', 'request-restore-code/', { username });
    }
    expectThrottled(await post('10.3.0.2', 'request-restore-code/', { username: 'u4' }));
    expect((await login('10.3.0.2', 'anna', PASSWORDS.anna)).status).toBe(200);
  });
});

describe('restore rate limits', () => {
  it('request-restore-code/ counts per client address and per username', async () => {
    for (const username of ['u1', 'u2', 'u3']) {
      expect((await post('10.4.0.1', 'request-restore-code/', { username })).status).toBe(202);
    }
    expectThrottled(await post('10.4.0.1', 'request-restore-code/', { username: 'u4' }));
    for (const i of [1, 2, 3]) {
      await post(`10.4.1.${i}`, 'request-restore-code/', { username: 'nobody' });
    }
    expectThrottled(await post('10.4.1.9', 'request-restore-code/', { username: 'nobody' }));
  });

  it('restore-password/ counts per username, whatever the address', async () => {
    const body = { username: 'bruno', password: 'new-password-1', code: '000000' };
    for (const i of [1, 2, 3]) {
      expect((await post(`10.5.0.${i}`, 'restore-password/', body)).status).toBe(400);
    }
    expectThrottled(await post('10.5.0.9', 'restore-password/', body));
    const other = await post('10.5.0.9', 'restore-password/', { ...body, username: 'carla' });
    expect(other.status).toBe(400);
  });

  it('request_restore_code/ counts per client address and per e-mail address', async () => {
    for (const i of [1, 2, 3]) {
      const answer = await post(`10.6.0.${i}`, 'request_restore_code/', {
        email: 'nobody@example.com',
      });
      expect(answer.status).toBe(201);
    }
    expectThrottled(
      await post('10.6.0.9', 'request_restore_code/', { email: 'NOBODY@example.com' }),
    );
    for (const i of [1, 2, 3]) {
      await post('10.6.1.1', 'request_restore_code/', { email: `x${i}@example.com` });
    }
    expectThrottled(await post('10.6.1.1', 'request_restore_code/', { email: 'y@example.com' }));
  });

  it('restore_password/ counts per client address', async () => {
    const body = {
      password: 'new-password-1',
      repeat_password: 'new-password-1',
      restore_password_code: 'x'.repeat(43),
    };
    for (let i = 0; i < 3; i++) {
      expect((await post('10.7.0.1', 'restore_password/', body)).status).toBe(400);
    }
    expectThrottled(await post('10.7.0.1', 'restore_password/', body));
    expect((await post('10.7.0.2', 'restore_password/', body)).status).toBe(400);
  });

  it('the restore page counts per client address and answers 429 as HTML', async () => {
    const path = `/users/restore-password/${'x'.repeat(43)}/`;
    for (let i = 0; i < 3; i++) {
      const answer = await ctx.request('GET', path, { headers: from('10.8.0.1') });
      expect(answer.status).toBe(404);
    }
    const refused = await ctx.request('GET', path, { headers: from('10.8.0.1') });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.text).toContain('Too many attempts');
    const posted = await ctx.request('POST', path, {
      raw: 'password=new-password-1&repeat_password=new-password-1',
      headers: { ...from('10.8.0.1'), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(429);
    const other = await ctx.request('GET', path, { headers: from('10.8.0.2') });
    expect(other.status).toBe(404);
  });
});

describe('links behind a proxy (TRUST_PROXY, no PUBLIC_URL)', () => {
  it('never take the scheme or host from the request: the configured address', async () => {
    const seen = smtp.messages.filter((m) => m.to.includes('anna@example.com')).length;
    const answer = await ctx.request('POST', '/api/v1/request_restore_code/', {
      body: { email: 'anna@example.com' },
      headers: {
        ...from('10.9.0.1'),
        host: 'evil.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
      },
    });
    expect(answer.status).toBe(201);
    const { link, code } = linkIn(await smtp.next('anna@example.com', seen));
    expect(link).toBe(`${ctx.url}/users/restore-password/${code}/`);
  });
});
