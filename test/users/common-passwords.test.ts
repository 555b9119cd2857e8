import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_COUNT, isCommonPassword } from '../../src/users/common-passwords.js';
import { RESTORE_CODE_MAX_ATTEMPTS } from '../../src/users/restore.js';
import { type Answer, PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser, restoreJobsDone } from '../helpers/fixtures.js';
import { codeIn, linkIn, type SmtpReceiver, startSmtpReceiver } from '../mail/smtp.js';

/**
 * ASVS 5.0 6.2.4: a common password is refused wherever the service receives a new password
 * (change, restore by code, restore by link, the restore page), with a 400 on the password
 * field, before anything reaches the ERP: the simulator is not called and its password stays.
 * A code is not tried for it either: more refusals than a code has attempts, and the code
 * still sets an uncommon password.
 */

let ctx: TestContext;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  ctx = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com' } });
  for (const name of ['hanna', 'ivo', 'jana']) {
    addSimUser(ctx, name, { email: `${name}@example.com` });
  }
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const TOO_COMMON = ['This password is too common.'];

/**
 * Listed ones in any case (the list is lower case), and the repeats and sequences zxcvbn left
 * out of its list: one more than a code has attempts.
 */
const COMMON = ['Password1', 'QWERTYUIOP', 'sunshine', '12121212', 'abcdefgh', '87654321'];

const simPassword = (username: string) =>
  ctx.sim.data.users.find((u) => u.username === username)!.password;

/** `request` runs with no call reaching the simulator. */
async function withoutUpstream(request: () => Promise<Answer>): Promise<Answer> {
  const before = ctx.sim.calls.length;
  const answer = await request();
  expect(ctx.sim.calls.slice(before)).toEqual([]);
  return answer;
}

async function mailTo(to: string, send: () => Promise<Answer>) {
  const seen = smtp.messages.filter((m) => m.to.includes(to)).length;
  expect((await send()).status).toBeLessThan(300);
  const mail = await smtp.next(to, seen);
  await restoreJobsDone(ctx);
  return mail;
}

describe('common passwords are refused before they reach the ERP', () => {
  it('every password of the top 3,000 of the list that the length rule lets through, in any case', () => {
    const require = createRequire(import.meta.url);
    const list: string[] = require('@zxcvbn-ts/language-common/src/passwords.json');
    const top = list.slice(0, 3000).filter((p) => p.length >= 8);
    expect(top.length).toBeGreaterThan(600);
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(top.length);
    for (const password of top) {
      expect(isCommonPassword(password), password).toBe(true);
      expect(isCommonPassword(password.toUpperCase()), password).toBe(true);
    }
    expect(COMMON.length).toBeGreaterThan(RESTORE_CODE_MAX_ATTEMPTS);
    // Not every password: these go through.
    for (const fine of ['anna-uncommon-2026', 'abcdefgh1', 'abcdefgabcdefg', 'x7#kQ2x7#kQ2a']) {
      expect(isCommonPassword(fine), fine).toBe(false);
    }
  });

  it('PATCH users/me/change-password/: 400 on new_password, nothing sent upstream', async () => {
    const anna = await ctx.login('anna');
    const change = (newPassword: string) =>
      ctx.request('PATCH', '/api/v1/users/me/change-password/', {
        token: anna.token,
        headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
        body: { password: PASSWORDS.anna, new_password: newPassword },
      });
    for (const password of COMMON) {
      const answer = await withoutUpstream(() => change(password));
      expect(answer.status, password).toBe(400);
      expect(answer.body).toEqual({ new_password: TOO_COMMON });
    }
    expect(simPassword('anna')).toBe(PASSWORDS.anna);
    // An uncommon one goes through, to the ERP.
    expect((await change('anna-uncommon-2026')).status).toBe(200);
    expect(simPassword('anna')).toBe('anna-uncommon-2026');
  });

  it('POST restore-password/ (code): 400 on password, the code not tried', async () => {
    const mail = await mailTo('hanna@example.com', () =>
      ctx.request('POST', '/api/v1/request-restore-code/', { body: { username: 'hanna' } }),
    );
    const code = codeIn(mail)!;
    const restore = (password: string) =>
      ctx.request('POST', '/api/v1/restore-password/', {
        body: { username: 'hanna', password, code },
      });
    for (const password of COMMON) {
      const answer = await withoutUpstream(() => restore(password));
      expect(answer.status, password).toBe(400);
      expect(answer.body).toEqual({ password: TOO_COMMON });
    }
    expect(simPassword('hanna')).toBe(PASSWORDS.hanna);
    expect((await restore('hanna-uncommon-2026')).status).toBe(202);
    expect(simPassword('hanna')).toBe('hanna-uncommon-2026');
  });

  it('POST restore_password/ (link): 400 on password (with a mismatch, on both), the code not spent', async () => {
    const mail = await mailTo('ivo@example.com', () =>
      ctx.request('POST', '/api/v1/request_restore_code/', { body: { email: 'ivo@example.com' } }),
    );
    const { code } = linkIn(mail);
    const restore = (password: string, repeat = password) =>
      ctx.request('POST', '/api/v1/restore_password/', {
        body: { password, repeat_password: repeat, restore_password_code: code },
      });
    for (const password of COMMON) {
      const answer = await withoutUpstream(() => restore(password));
      expect(answer.status, password).toBe(400);
      expect(answer.body).toEqual({ password: TOO_COMMON });
    }
    const both = await withoutUpstream(() => restore('Password1', 'Password2'));
    expect(both.status).toBe(400);
    expect(both.body).toEqual({
      password: TOO_COMMON,
      repeat_password: ['The two passwords do not match.'],
    });
    expect(simPassword('ivo')).toBe(PASSWORDS.ivo);
    expect((await restore('ivo-uncommon-2026')).status).toBe(201);
    expect(simPassword('ivo')).toBe('ivo-uncommon-2026');
  });

  it('the restore page: the form again with the message (400), the code not spent', async () => {
    const mail = await mailTo('jana@example.com', () =>
      ctx.request('POST', '/api/v1/request_restore_code/', { body: { email: 'jana@example.com' } }),
    );
    const { path } = linkIn(mail);
    const post = (password: string) =>
      ctx.request('POST', path, {
        raw: new URLSearchParams({ password, repeat_password: password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    for (const password of COMMON) {
      const answer = await withoutUpstream(() => post(password));
      expect(answer.status, password).toBe(400);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.text).toContain('<form method="post">');
      expect(answer.text).toMatch(
        /<p class="error" role="alert"[^>]*>This password is too common\./,
      );
    }
    expect(simPassword('jana')).toBe(PASSWORDS.jana);
    expect((await ctx.request('GET', path)).status).toBe(200);
    const done = await post('jana-uncommon-2026');
    expect(done.status).toBe(200);
    expect(done.text).toContain('Password set');
    expect(simPassword('jana')).toBe('jana-uncommon-2026');
  });
});
