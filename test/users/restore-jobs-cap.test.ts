import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Answer, startTestApp, type TestContext } from '../helpers/app.js';
import { restoreJobsDone } from '../helpers/fixtures.js';
import { sample } from '../helpers/metrics.js';

/**
 * Issue 29, finding 13: with the ERP slow, restore requests fill the background job cap (64
 * per instance) and the next ones are dropped. Each drop is counted in
 * `ordering_restore_jobs_dropped_total` and logged, without the name or address it held; the
 * client's answer does not change (it must not tell a dropped request from a sent one).
 */
const CAP = 64;
const TOKEN = 'jobs-cap-metrics-token-0123456789';
const NAME = 'jobs-cap-secret-name';
const EMAIL = 'jobs-cap-secret@example.com';

let ctx: TestContext;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  ctx = await startTestApp({
    logStream,
    env: {
      METRICS_TOKEN: TOKEN,
      // The limits are not what is tested here: every request reaches the jobs.
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      // Every job waits at the ERP itself (no queue timeout ends one before the test does).
      UPSTREAM_CONNECTIONS_IDENTITY: String(CAP + 8),
      UPSTREAM_TIMEOUT_MS: '120000',
    },
  });
});
afterAll(async () => {
  ctx?.sim.release();
  await ctx?.close();
});

const dropped = async () => {
  const answer = await ctx.request('GET', '/metrics', {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(answer.status).toBe(200);
  return sample(answer.text, 'ordering_restore_jobs_dropped_total');
};
const dropLines = () => lines.filter((l) => String(l.msg).includes('dropped, too many'));
const requestCode = (username: string) =>
  ctx.request('POST', '/api/v1/request-restore-code/', { body: { username } });
const requestLink = (email: string) =>
  ctx.request('POST', '/api/v1/request_restore_code/', { body: { email } });
const shape = (answer: Answer) => ({ status: answer.status, body: answer.text });

it('a full cap drops the next restore e-mails: each counted and logged, the answer unchanged', async () => {
  expect(await dropped()).toBe(0);
  // The look-ups hang at the ERP: each request's job stays running.
  ctx.sim.inject('admin.user', { type: 'hang' }, CAP);
  const accepted = [];
  for (let i = 0; i < CAP; i++) accepted.push(await requestCode(`${NAME}-${i}`));
  const codeAnswer = shape(accepted[0]);
  expect(codeAnswer.status).toBe(202);
  for (const answer of accepted) expect(shape(answer)).toEqual(codeAnswer);
  expect(await dropped()).toBe(0);
  expect(dropLines()).toEqual([]);

  // The cap is full: these are dropped, answered as the accepted ones were.
  for (let i = 0; i < 3; i++) expect(shape(await requestCode(NAME))).toEqual(codeAnswer);
  const link = await requestLink(EMAIL);
  expect(link.status).toBe(201);
  expect(await dropped()).toBe(4);
  const logged = dropLines();
  expect(logged.map((l) => [l.level, l.msg, l.dropped, l.max])).toEqual([
    [40, 'restore code e-mail: dropped, too many restore jobs running', 1, CAP],
    [40, 'restore code e-mail: dropped, too many restore jobs running', 2, CAP],
    [40, 'restore code e-mail: dropped, too many restore jobs running', 3, CAP],
    [40, 'restore link e-mail: dropped, too many restore jobs running', 4, CAP],
  ]);
  const text = JSON.stringify(logged);
  expect(text).not.toContain(NAME);
  expect(text).not.toContain(EMAIL);

  // The ERP answers again: the jobs end, and the next request is not dropped.
  ctx.sim.release();
  await restoreJobsDone(ctx);
  expect(shape(await requestCode(NAME))).toEqual(codeAnswer);
  await restoreJobsDone(ctx);
  expect(await dropped()).toBe(4);
  expect(dropLines()).toHaveLength(4);
}, 60_000);
