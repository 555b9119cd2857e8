import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { restoreCodes } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser } from '../helpers/fixtures.js';
import {
  codeIn,
  linkIn,
  type ReceivedMail,
  type SmtpReceiver,
  startSmtpReceiver,
} from '../mail/smtp.js';

let ctx: TestContext;
let smtp: SmtpReceiver;
let customer: Session;
let staff: Session;
let admin: Session;

const TTL = 3600;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  ctx = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com' } });
  // Two accounts share one e-mail address (variant B mails each of them).
  for (const [username, email] of [
    ['erik', 'erik@example.com'],
    ['erik2', 'erik@example.com'],
    ['fritz', 'fritz@example.com'],
    ['gina', 'gina@example.com'],
  ]) {
    addSimUser(ctx, username, { email });
  }
  // Logged in before any password here changes (and before the clock moves).
  customer = await ctx.login('anna');
  staff = await ctx.loginAs('bruno', 'staff');
  admin = await ctx.loginAs('carla', 'admin');
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});
afterEach(() => ctx.sim.clearFaults());

const simUser = (username: string) => ctx.sim.data.users.find((u) => u.username === username)!;
const mailsTo = (to: string) => smtp.messages.filter((m) => m.to.includes(to)).length;

/** Runs `action` and returns the e-mail it sends to `to`. */
async function mailFrom(to: string, action: () => Promise<unknown>): Promise<ReceivedMail> {
  const seen = mailsTo(to);
  await action();
  return smtp.next(to, seen);
}

const post = (path: string, body: unknown) => ctx.request('POST', `/api/v1/${path}`, { body });

async function requestCode(username: string, to: string): Promise<string> {
  const mail = await mailFrom(to, async () => {
    const answer = await post('request-restore-code/', { username });
    expect(answer.status).toBe(202);
  });
  const code = codeIn(mail);
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

async function requestLink(email: string) {
  const mail = await mailFrom(email, async () => {
    const answer = await post('request_restore_code/', { email });
    expect(answer.status).toBe(201);
  });
  return linkIn(mail);
}

const INVALID_CODE = { code: ['Invalid or expired code.'] };

describe('permission matrix', () => {
  it('the restore endpoints and the page are public: the same answers with or without a token', async () => {
    const cells: [string, Session | undefined][] = [
      ['anonymous', undefined],
      ['customer', customer],
      ['staff', staff],
      ['admin', admin],
    ];
    const badLink = {
      password: 'new-password-1',
      repeat_password: 'new-password-1',
      restore_password_code: 'x'.repeat(43),
    };
    for (const [role, session] of cells) {
      const call = (path: string, body: unknown) =>
        ctx.request('POST', `/api/v1/${path}`, { body, token: session?.token });
      expect((await call('request-restore-code/', { username: 'nobody' })).status, role).toBe(202);
      expect(
        (await call('request_restore_code/', { email: 'nobody@example.com' })).status,
        role,
      ).toBe(201);
      const restore = await call('restore-password/', {
        username: 'nobody',
        password: 'new-password-1',
        code: '123456',
      });
      expect(restore.status, role).toBe(400);
      expect(restore.body, role).toEqual(INVALID_CODE);
      expect((await call('restore_password/', badLink)).status, role).toBe(400);
      const page = await ctx.request('GET', `/users/restore-password/${'x'.repeat(43)}/`, {
        token: session?.token,
      });
      expect(page.status, role).toBe(404);
    }
  });
});

describe('variant A: request-restore-code/ and restore-password/', () => {
  it('e-mails a 6-digit code (text and HTML) and sets the new password with it, once', async () => {
    const mail = await mailFrom('anna@example.com', async () => {
      const answer = await post('request-restore-code/', { username: 'anna' });
      expect(answer.status).toBe(202);
      expect(answer.text).toBe('');
    });
    expect(mail.from).toBe('shop@example.com');
    const code = codeIn(mail)!;
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.content).toContain('text/html');
    expect(mail.content).toContain(`<strong>${code}</strong>`);
    // Only a hash is stored.
    const rows = await ctx.database.db
      .select()
      .from(restoreCodes)
      .where(eq(restoreCodes.username, 'anna'));
    expect(rows).toHaveLength(1);
    expect(rows[0].variant).toBe('code');
    expect(rows[0].codeHash).not.toContain(code);
    expect(rows[0].codeHash).toMatch(/^[0-9a-f]{64}$/);

    const restored = await post('restore-password/', {
      username: 'anna',
      password: 'anna-restored-1',
      code,
    });
    expect(restored.status).toBe(202);
    expect(restored.text).toBe('');
    expect(simUser('anna').password).toBe('anna-restored-1');
    const login = await post('auth/jwt/token/', { username: 'anna', password: 'anna-restored-1' });
    expect(login.status).toBe(200);

    const again = await post('restore-password/', {
      username: 'anna',
      password: 'anna-restored-2',
      code,
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID_CODE);
    expect(simUser('anna').password).toBe('anna-restored-1');
  });

  it('an unknown username gets the same 202, and nothing is stored or sent', async () => {
    const before = smtp.messages.length;
    const unknown = await post('request-restore-code/', { username: 'nobody-here' });
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe('');
    const stored = await ctx.database.db
      .select()
      .from(restoreCodes)
      .where(eq(restoreCodes.username, 'nobody-here'));
    expect(stored).toEqual([]);
    // A known user's mail sent afterwards is the only one that arrives.
    await requestCode('bruno', 'bruno@example.com');
    expect(smtp.messages.length).toBe(before + 1);
  });

  it('a wrong code, or the code of another user, is 400 on code', async () => {
    const code = await requestCode('fritz', 'fritz@example.com');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (const [username, value] of [
      ['fritz', wrong],
      ['bruno', code],
      ['fritz', 'abc'],
    ]) {
      const answer = await post('restore-password/', {
        username,
        password: 'new-password-1',
        code: value,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(INVALID_CODE);
    }
    expect(simUser('bruno').password).toBe('bruno-pass-2026');
  });

  it(`expires after RESTORE_CODE_TTL_SECONDS (${TTL})`, async () => {
    const expired = await requestCode('gina', 'gina@example.com');
    ctx.clock.advance(TTL);
    const late = await post('restore-password/', {
      username: 'gina',
      password: 'gina-new-pass-1',
      code: expired,
    });
    expect(late.status).toBe(400);
    expect(late.body).toEqual(INVALID_CODE);

    const fresh = await requestCode('gina', 'gina@example.com');
    // Issuing a code drops the user's expired ones.
    const rows = await ctx.database.db
      .select({ id: restoreCodes.id })
      .from(restoreCodes)
      .where(eq(restoreCodes.username, 'gina'));
    expect(rows).toHaveLength(1);
    ctx.clock.advance(TTL - 1);
    const inTime = await post('restore-password/', {
      username: 'gina',
      password: 'gina-new-pass-1',
      code: fresh,
    });
    expect(inTime.status).toBe(202);
    expect(simUser('gina').password).toBe('gina-new-pass-1');
  });

  it('using one code spends the older unused codes of that user too', async () => {
    const first = await requestCode('fritz', 'fritz@example.com');
    const second = await requestCode('fritz', 'fritz@example.com');
    const used = await post('restore-password/', {
      username: 'fritz',
      password: 'fritz-new-pass-1',
      code: second,
    });
    expect(used.status).toBe(202);
    const older = await post('restore-password/', {
      username: 'fritz',
      password: 'fritz-new-pass-2',
      code: first,
    });
    expect(older.status).toBe(400);
    expect(simUser('fritz').password).toBe('fritz-new-pass-1');
  });

  it('password takes 8 to 128 characters (400 on password), and the code stays usable', async () => {
    const code = await requestCode('bruno', 'bruno@example.com');
    for (const password of ['seven77', 'x'.repeat(129)]) {
      const answer = await post('restore-password/', { username: 'bruno', password, code });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['password']);
    }
    const missing = await post('restore-password/', {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body).sort()).toEqual(['code', 'password', 'username']);
    const ok = await post('restore-password/', {
      username: 'bruno',
      // 128 characters, not one repeated (test/users/common-passwords.test.ts).
      password: `bruno-${'x'.repeat(122)}`,
      code,
    });
    expect(ok.status).toBe(202);
  });

  it('upstream failing to set the password: 503, and the code can be used again', async () => {
    const code = await requestCode('carla', 'carla@example.com');
    ctx.sim.inject('admin.password', { type: 'unavailable' });
    const failed = await post('restore-password/', {
      username: 'carla',
      password: 'carla-new-pass-1',
      code,
    });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe('upstream_unavailable');
    const retried = await post('restore-password/', {
      username: 'carla',
      password: 'carla-new-pass-1',
      code,
    });
    expect(retried.status).toBe(202);
    expect(simUser('carla').password).toBe('carla-new-pass-1');
  });
});

describe('variant B: request_restore_code/ and restore_password/', () => {
  it('e-mails a link to the page of this service and sets the new password with its code, once', async () => {
    const { link, code } = await requestLink('fritz@example.com');
    expect(link).toBe(`${ctx.url}/users/restore-password/${code}/`);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ok = await post('restore_password/', {
      password: 'fritz-link-pass-1',
      repeat_password: 'fritz-link-pass-1',
      restore_password_code: code,
    });
    expect(ok.status).toBe(201);
    expect(ok.text).toBe('');
    expect(simUser('fritz').password).toBe('fritz-link-pass-1');
    const again = await post('restore_password/', {
      password: 'fritz-link-pass-2',
      repeat_password: 'fritz-link-pass-2',
      restore_password_code: code,
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ restore_password_code: ['Invalid or expired code.'] });
    expect(simUser('fritz').password).toBe('fritz-link-pass-1');
  });

  it('two concurrent uses of one code: exactly one succeeds', async () => {
    const { code } = await requestLink('bruno@example.com');
    const attempt = (password: string) =>
      post('restore_password/', {
        password,
        repeat_password: password,
        restore_password_code: code,
      });
    const answers = await Promise.all([attempt('bruno-race-pass-1'), attempt('bruno-race-pass-2')]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    const winner = answers[0].status === 201 ? 'bruno-race-pass-1' : 'bruno-race-pass-2';
    expect(simUser('bruno').password).toBe(winner);
  });

  it('mails every account with the address, each its own code', async () => {
    const seen = mailsTo('erik@example.com');
    const answer = await post('request_restore_code/', { email: 'erik@example.com' });
    expect(answer.status).toBe(201);
    const codes = [
      linkIn(await smtp.next('erik@example.com', seen)).code,
      linkIn(await smtp.next('erik@example.com', seen + 1)).code,
    ];
    expect(codes[0]).not.toBe(codes[1]);
    for (const [i, code] of codes.entries()) {
      const ok = await post('restore_password/', {
        password: `erik-link-pass-${i}`,
        repeat_password: `erik-link-pass-${i}`,
        restore_password_code: code,
      });
      expect(ok.status).toBe(201);
    }
    expect([simUser('erik').password, simUser('erik2').password].sort()).toEqual([
      'erik-link-pass-0',
      'erik-link-pass-1',
    ]);
  });

  it('a mismatch is 400 on repeat_password and does not spend the code', async () => {
    const { code } = await requestLink('gina@example.com');
    const mismatch = await post('restore_password/', {
      password: 'gina-link-pass-1',
      repeat_password: 'gina-link-pass-X',
      restore_password_code: code,
    });
    expect(mismatch.status).toBe(400);
    expect(Object.keys(mismatch.body)).toEqual(['repeat_password']);
    const short = await post('restore_password/', {
      password: 'short',
      repeat_password: 'short',
      restore_password_code: code,
    });
    expect(short.status).toBe(400);
    expect(Object.keys(short.body)).toEqual(['password']);
    const ok = await post('restore_password/', {
      password: 'gina-link-pass-1',
      repeat_password: 'gina-link-pass-1',
      restore_password_code: code,
    });
    expect(ok.status).toBe(201);
    expect(simUser('gina').password).toBe('gina-link-pass-1');
  });

  it('an unknown address gets the same 201 and no mail; a malformed one is 400 on email', async () => {
    const before = smtp.messages.length;
    const unknown = await post('request_restore_code/', { email: 'nobody@example.com' });
    expect(unknown.status).toBe(201);
    expect(unknown.text).toBe('');
    await requestLink('bruno@example.com');
    expect(smtp.messages.length).toBe(before + 1);
    const malformed = await post('request_restore_code/', { email: 'not an address' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ email: ['Enter a valid email address.'] });
  });

  it('a wrong code is 400 on restore_password_code; a link expires with the TTL', async () => {
    const wrong = await post('restore_password/', {
      password: 'new-password-1',
      repeat_password: 'new-password-1',
      restore_password_code: 'x'.repeat(43),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ restore_password_code: ['Invalid or expired code.'] });
    const { code } = await requestLink('bruno@example.com');
    ctx.clock.advance(TTL);
    const late = await post('restore_password/', {
      password: 'new-password-1',
      repeat_password: 'new-password-1',
      restore_password_code: code,
    });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ restore_password_code: ['Invalid or expired code.'] });
  });

  it("the link's host never comes from the client's Host header (no TRUST_PROXY)", async () => {
    const mail = await mailFrom('bruno@example.com', async () => {
      const answer = await ctx.request('POST', '/api/v1/request_restore_code/', {
        body: { email: 'bruno@example.com' },
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      });
      expect(answer.status).toBe(201);
    });
    expect(linkIn(mail).link.startsWith(`${ctx.url}/`)).toBe(true);
  });
});

describe('the restore page /users/restore-password/<code>/', () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const submit = (link: string, fields: Record<string, string>) =>
    fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form(fields),
      redirect: 'manual',
    });

  function expectPageHeaders(response: Response) {
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  }

  it('GET shows an accessible form; its POST sets the password; the link is then spent', async () => {
    const { link } = await requestLink('carla@example.com');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    const html = await page.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<form method="post">/);
    expect(html).not.toMatch(/<script/i);
    for (const name of ['password', 'repeat_password']) {
      expect(html).toContain(`<label for="${name}">`);
      expect(html).toMatch(
        new RegExp(
          `<input type="password" id="${name}" name="${name}" autocomplete="new-password"`,
        ),
      );
    }

    const done = await submit(link, {
      password: 'carla-page-pass-1',
      repeat_password: 'carla-page-pass-1',
    });
    expect(done.status).toBe(200);
    expectPageHeaders(done);
    expect(await done.text()).toContain('Password set');
    expect(simUser('carla').password).toBe('carla-page-pass-1');

    const spent = await fetch(link);
    expect(spent.status).toBe(404);
    expectPageHeaders(spent);
    expect(await spent.text()).toContain('Link expired or already used');
    const reposted = await submit(link, {
      password: 'carla-page-pass-2',
      repeat_password: 'carla-page-pass-2',
    });
    expect(reposted.status).toBe(400);
    expect(await reposted.text()).toContain('Link expired or already used');
    expect(simUser('carla').password).toBe('carla-page-pass-1');
  });

  it('a mismatch or a short password shows the form again with a message; the code is not spent', async () => {
    const { link } = await requestLink('gina@example.com');
    const mismatch = await submit(link, {
      password: 'gina-page-pass-1',
      repeat_password: 'gina-page-pass-2',
    });
    expect(mismatch.status).toBe(400);
    expectPageHeaders(mismatch);
    const mismatchHtml = await mismatch.text();
    expect(mismatchHtml).toContain('The two passwords do not match.');
    expect(mismatchHtml).toContain('<form method="post">');
    const short = await submit(link, { password: 'short', repeat_password: 'short' });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('at least 8 characters');
    const missing = await submit(link, {});
    expect(missing.status).toBe(400);
    expect((await fetch(link)).status).toBe(200);
    const ok = await submit(link, {
      password: 'gina-page-pass-1',
      repeat_password: 'gina-page-pass-1',
    });
    expect(ok.status).toBe(200);
    expect(simUser('gina').password).toBe('gina-page-pass-1');
  });

  it('an unknown or expired link: a clear HTML page, nothing echoed', async () => {
    const unknown = await fetch(
      `${ctx.url}/users/restore-password/%3Cscript%3Ealert(1)%3C%2Fscript%3E/`,
    );
    expect(unknown.status).toBe(404);
    expectPageHeaders(unknown);
    const html = await unknown.text();
    expect(html).toContain('Link expired or already used');
    expect(html).not.toContain('<script');

    const { link } = await requestLink('bruno@example.com');
    ctx.clock.advance(TTL);
    const expired = await fetch(link);
    expect(expired.status).toBe(404);
    expect(await expired.text()).toContain('Link expired or already used');
    const posted = await submit(link, {
      password: 'new-password-1',
      repeat_password: 'new-password-1',
    });
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain('Link expired or already used');
  });

  it('upstream down: an HTML error page (503), and the link still works afterwards', async () => {
    const { link } = await requestLink('fritz@example.com');
    ctx.sim.inject('admin.password', { type: 'unavailable' });
    const failed = await submit(link, {
      password: 'fritz-page-pass-1',
      repeat_password: 'fritz-page-pass-1',
    });
    expect(failed.status).toBe(503);
    expectPageHeaders(failed);
    expect(await failed.text()).toContain('could not be set right now');
    const ok = await submit(link, {
      password: 'fritz-page-pass-1',
      repeat_password: 'fritz-page-pass-1',
    });
    expect(ok.status).toBe(200);
    expect(simUser('fritz').password).toBe('fritz-page-pass-1');
  });
});
