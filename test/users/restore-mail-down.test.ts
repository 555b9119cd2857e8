import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { restoreCodes } from '../../src/db/schema.js';
import { startTestApp, type TestContext } from '../helpers/app.js';
import { restoreJobsDone } from '../helpers/fixtures.js';
import { closedPort } from '../mail/smtp.js';

// SMTP_URL points where no mail server listens.
let ctx: TestContext;

beforeAll(async () => {
  const port = await closedPort();
  ctx = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
});
afterAll(() => ctx?.close());

it('an unreachable mail server changes no answer: the code is stored, the failure only logged', async () => {
  const byName = await ctx.request('POST', '/api/v1/request-restore-code/', {
    body: { username: 'anna' },
  });
  expect(byName.status).toBe(202);
  expect(byName.text).toBe('');
  const byEmail = await ctx.request('POST', '/api/v1/request_restore_code/', {
    body: { email: 'anna@example.com' },
  });
  expect(byEmail.status).toBe(201);
  expect(byEmail.text).toBe('');
  await restoreJobsDone(ctx);
  const rows = await ctx.database.db
    .select({ variant: restoreCodes.variant })
    .from(restoreCodes)
    .where(eq(restoreCodes.username, 'anna'));
  expect(rows.map((r) => r.variant).sort()).toEqual(['code', 'link']);
});
