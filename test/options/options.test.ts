import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { options } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';

const OPTIONS = '/api/v1/options/';

let ctx: TestContext;
let anna: Session;
let staff: Session;
let admin: Session;

// Inserted out of name order, so the answer's order is the service's doing.
const ROWS: (typeof options.$inferInsert)[] = [
  {
    name: 'support_phone',
    publicName: 'Support phone',
    type: 1,
    value: '+49 40 123456',
    isPublic: true,
  },
  {
    name: 'criteria_for_random_controls',
    publicName: 'Criteria for random controls',
    type: 2,
    value: 'carts',
    isPublic: true,
  },
  { name: 'internal_secret', publicName: 'Internal', value: 'hidden', isPublic: false },
  {
    name: 'terms_document',
    publicName: 'Terms',
    type: 3,
    value: '',
    file: 'options/terms.pdf',
    isList: true,
    isPublic: true,
  },
  { name: 'admin_only_flag', value: 'x' },
];

beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.database.db.insert(options).values(ROWS);
  anna = await ctx.login('anna');
  staff = await ctx.loginAs('bruno', 'staff');
  admin = await ctx.loginAs('carla', 'admin');
});
afterAll(() => ctx?.close());

const names = (answer: { body: { results: { name: string }[] } }) =>
  answer.body.results.map((o) => o.name);

describe('GET options/', () => {
  it('lists only public options, ordered by name, in the interface fields', async () => {
    const answer = await ctx.request('GET', OPTIONS);
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(3);
    expect(answer.body.next).toBeNull();
    expect(answer.body.previous).toBeNull();
    expect(names(answer)).toEqual([
      'criteria_for_random_controls',
      'support_phone',
      'terms_document',
    ]);
    const [terms] = await ctx.database.db
      .select({ id: options.id })
      .from(options)
      .where(eq(options.name, 'terms_document'));
    expect(answer.body.results[2]).toEqual({
      id: terms.id,
      name: 'terms_document',
      public_name: 'Terms',
      type: 3,
      value: '',
      file: 'options/terms.pdf',
      is_list: true,
      is_public: true,
    });
    expect(answer.body.results[0]).toMatchObject({ file: null, is_list: false, type: 2 });
  });

  it('is public: the same answer with no token, any role, or a token that is not valid', async () => {
    const anonymous = await ctx.request('GET', OPTIONS);
    const callers = [
      ['customer', { token: anna.token }],
      ['staff', { token: staff.token }],
      ['admin', { token: admin.token }],
      ['bad token', { token: 'not-a-jwt' }],
      ['other scheme', { headers: { authorization: 'Basic abc' } }],
    ] as const;
    for (const [who, options] of callers) {
      const answer = await ctx.request('GET', OPTIONS, options);
      expect(answer.status, who).toBe(200);
      expect(answer.body, who).toEqual(anonymous.body);
    }
  });

  it('never shows a non-public option, not even to an administrator asking by name', async () => {
    for (const name of ['internal_secret', 'admin_only_flag']) {
      for (const token of [undefined, admin.token]) {
        const answer = await ctx.request('GET', `${OPTIONS}?name=${name}`, { token });
        expect(answer.status).toBe(200);
        expect(answer.body.count).toBe(0);
        expect(answer.body.results).toEqual([]);
      }
    }
  });

  it('filters by exact name; an empty name does not filter', async () => {
    const exact = await ctx.request('GET', `${OPTIONS}?name=criteria_for_random_controls`);
    expect(exact.body.count).toBe(1);
    expect(exact.body.results[0].value).toBe('carts');
    for (const near of [
      'criteria',
      'CRITERIA_FOR_RANDOM_CONTROLS',
      'criteria_for_random_controls ',
    ]) {
      const answer = await ctx.request('GET', `${OPTIONS}?name=${encodeURIComponent(near)}`);
      expect(answer.status, near).toBe(200);
      expect(answer.body.count, near).toBe(0);
    }
    const empty = await ctx.request('GET', `${OPTIONS}?name=`);
    expect(empty.body.count).toBe(3);
  });

  it('pages with absolute links that keep the filter; past the end is 404', async () => {
    const first = await ctx.request('GET', `${OPTIONS}?page_size=2`);
    expect(names(first)).toEqual(['criteria_for_random_controls', 'support_phone']);
    const next = new URL(first.body.next);
    expect(next.origin).toBe(ctx.url);
    const second = await ctx.request('GET', next.pathname + next.search);
    expect(names(second)).toEqual(['terms_document']);
    expect(second.body.previous).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/options\/\?/);
    const past = await ctx.request('GET', `${OPTIONS}?page=3&page_size=2`);
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.', code: 'not_found' });
  });

  it('is read-only: other methods are 405 with Allow', async () => {
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const answer = await ctx.request(method, OPTIONS, { token: admin.token, body: {} });
      expect(answer.status, method).toBe(405);
      expect(answer.body.code).toBe('method_not_allowed');
      expect(answer.headers.get('allow')).toContain('GET');
    }
  });
});
