import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers/app.js';
import { linkIn, type SmtpReceiver, startSmtpReceiver } from '../mail/smtp.js';

let ctx: TestContext;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  ctx = await startTestApp({
    env: {
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://shop.example.com/ordering/',
      TRUST_PROXY: 'true',
    },
  });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

it('links are built on PUBLIC_URL, whatever Host and X-Forwarded-Host say (TRUST_PROXY set)', async () => {
  const answer = await ctx.request('POST', '/api/v1/request_restore_code/', {
    body: { email: 'bruno@example.com' },
    headers: {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
      'x-forwarded-for': '203.0.113.9',
    },
  });
  expect(answer.status).toBe(201);
  const { link, code } = linkIn(await smtp.next('bruno@example.com'));
  expect(link).toBe(`https://shop.example.com/ordering/users/restore-password/${code}/`);
});
