import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreCodes } from '../../src/db/schema.js';
import { codeHash } from '../../src/users/restore.js';
import { startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser, restoreJobsDone } from '../helpers/fixtures.js';
import { codeIn, linkIn, type SmtpReceiver, startSmtpReceiver } from '../mail/smtp.js';

// An attacker who knows a username, against the real app on a real port. The per-minute
// limit is off (AUTH_RATE_LIMIT_PER_MINUTE=0, as if spread over addresses and minutes):
// what bounds guessing here is the code and the account, counted in the database.
let ctx: TestContext;
let smtp: SmtpReceiver;
const SECRET = 'test-secret-test-secret-test-secret';

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  ctx = await startTestApp({
    env: { SMTP_URL: smtp.url, RESTORE_CODES_PER_DAY: '40', RESTORE_ATTEMPTS_PER_DAY: '200' },
  });
  for (const name of ['vera', 'walt', 'xena', 'yuri', 'zora']) {
    addSimUser(ctx, name, { email: `${name}@example.com` });
  }
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const post = (path: string, body: unknown) => ctx.request('POST', `/api/v1/${path}`, { body });
const simUser = (username: string) => ctx.sim.data.users.find((u) => u.username === username)!;
const mailsTo = (to: string) => smtp.messages.filter((m) => m.to.includes(to));

async function requestCode(username: string): Promise<string> {
  const seen = mailsTo(`${username}@example.com`).length;
  expect((await post('request-restore-code/', { username })).status).toBe(202);
  return codeIn(await smtp.next(`${username}@example.com`, seen))!;
}

const guess = (username: string, code: string, password = 'taken-over-1') =>
  post('restore-password/', { username, password, code });

/** A 6-digit code other than `code`. */
const wrong = (code: string, i: number) =>
  String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

async function rowsOf(username: string, variant: 'code' | 'link') {
  return ctx.database.db
    .select()
    .from(restoreCodes)
    .where(and(eq(restoreCodes.account, username), eq(restoreCodes.variant, variant)));
}

describe('one live code per account and variant', () => {
  it('a new request replaces the older code: only the newest works', async () => {
    const first = await requestCode('vera');
    const second = await requestCode('vera');
    expect((await guess('vera', first)).status).toBe(400);
    expect((await guess('vera', second, 'vera-new-pass-1')).status).toBe(202);
    expect(simUser('vera').password).toBe('vera-new-pass-1');
  });

  it('20 concurrent requests leave one stored code, the one of one of the mails', async () => {
    const seen = mailsTo('walt@example.com').length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('request-restore-code/', { username: 'walt' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    await restoreJobsDone(ctx);
    const codes = mailsTo('walt@example.com')
      .slice(seen)
      .map((m) => codeIn(m)!);
    expect(codes).toHaveLength(20);
    const rows = await rowsOf('walt', 'code');
    expect(rows).toHaveLength(1);
    const live = codes.filter((c) => codeHash(SECRET, 'code', c, 'walt') === rows[0].codeHash);
    expect(live.length).toBeGreaterThanOrEqual(1);
    expect((await guess('walt', live[0], 'walt-new-pass-1')).status).toBe(202);
    expect(simUser('walt').password).toBe('walt-new-pass-1');
  });

  it('links too: 10 concurrent requests leave one live link, and the page of an older one is gone', async () => {
    const seen = mailsTo('xena@example.com').length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post('request_restore_code/', { email: 'xena@example.com' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    await restoreJobsDone(ctx);
    const links = mailsTo('xena@example.com')
      .slice(seen)
      .map((m) => linkIn(m));
    expect(links).toHaveLength(10);
    expect(await rowsOf('xena', 'link')).toHaveLength(1);
    const pages = await Promise.all(links.map(({ link }) => fetch(link).then((r) => r.status)));
    expect(pages.filter((s) => s === 200)).toHaveLength(1);
    expect(pages.filter((s) => s === 404)).toHaveLength(9);
  });
});

describe('a code dies after 5 attempts', () => {
  it('4 wrong guesses leave the code usable; after the 5th the right code is refused', async () => {
    const code = await requestCode('yuri');
    for (let i = 0; i < 4; i++) expect((await guess('yuri', wrong(code, i))).status).toBe(400);
    expect((await guess('yuri', code, 'yuri-new-pass-1')).status).toBe(202);
    expect(simUser('yuri').password).toBe('yuri-new-pass-1');

    const next = await requestCode('yuri');
    for (let i = 0; i < 5; i++) {
      // The username spelled as an attacker may: case and spaces change nothing.
      const answer = await guess(i % 2 ? ' YURI ' : 'yuri', wrong(next, i));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: ['Invalid or expired code.'] });
    }
    expect((await guess('yuri', next, 'yuri-taken-over')).status).toBe(400);
    expect(simUser('yuri').password).toBe('yuri-new-pass-1');
  });

  it('30 concurrent wrong guesses: exactly 5 reach the code, and then it is dead', async () => {
    const code = await requestCode('zora');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => guess('zora', wrong(code, i))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(400));
    const [row] = await rowsOf('zora', 'code');
    expect(row.attempts).toBe(5);
    expect((await guess('zora', code, 'zora-taken-over')).status).toBe(400);
    expect(simUser('zora').password).toBe('zora-pass-2026');
  });
});

describe('the account budget over 24 hours (in PostgreSQL, across instances)', () => {
  let budget: TestContext;
  let mails: SmtpReceiver;
  beforeAll(async () => {
    mails = await startSmtpReceiver();
    budget = await startTestApp({
      env: { SMTP_URL: mails.url, RESTORE_CODES_PER_DAY: '3', RESTORE_ATTEMPTS_PER_DAY: '7' },
    });
  });
  afterAll(async () => {
    await budget?.close();
    await mails?.close();
  });
  const to = 'anna@example.com';
  const ask = async () => {
    const answer = await budget.request('POST', '/api/v1/request-restore-code/', {
      body: { username: 'anna' },
    });
    expect(answer.status).toBe(202);
    await restoreJobsDone(budget);
  };
  const attempt = (code: string, password = 'anna-taken-over') =>
    budget.request('POST', '/api/v1/restore-password/', {
      body: { username: 'anna', password, code },
    });

  it('at most RESTORE_CODES_PER_DAY codes: then the same answer, no mail, and the last code still works', async () => {
    for (let i = 0; i < 3; i++) await ask();
    expect(mails.messages.filter((m) => m.to.includes(to))).toHaveLength(3);
    const last = codeIn(mails.messages.at(-1)!)!;
    await ask();
    expect(mails.messages.filter((m) => m.to.includes(to))).toHaveLength(3);
    expect((await attempt(last, 'anna-pass-2026')).status).toBe(202);
    // A day later, codes are issued again.
    budget.clock.advance(24 * 3600);
    await ask();
    expect(mails.messages.filter((m) => m.to.includes(to))).toHaveLength(4);
  });

  it('at most RESTORE_ATTEMPTS_PER_DAY attempts: then even the right code of a fresh request is refused until the day is over', async () => {
    budget.clock.advance(24 * 3600);
    await ask();
    const first = codeIn(mails.messages.at(-1)!)!;
    for (let i = 0; i < 5; i++) expect((await attempt(wrong(first, i))).status).toBe(400);
    await ask();
    const second = codeIn(mails.messages.at(-1)!)!;
    expect(second).toBeDefined();
    for (let i = 0; i < 2; i++) expect((await attempt(wrong(second, i))).status).toBe(400);
    // 7 attempts today: the right code of the live, fresh code is refused too.
    expect((await attempt(second)).status).toBe(400);
    expect(budget.sim.data.users.find((u) => u.username === 'anna')!.password).toBe(
      'anna-pass-2026',
    );
    budget.clock.advance(24 * 3600);
    await ask();
    const third = codeIn(mails.messages.at(-1)!)!;
    expect((await attempt(third, 'anna-restored-9')).status).toBe(202);
  });
});
