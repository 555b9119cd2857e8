import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';

/**
 * Every route of the OpenAPI document, called with hostile path parameters, query values and
 * bodies, as a customer and as an admin: no answer may be a 500 or show internals.
 */
let ctx: TestContext;
let sessions: Session[];
beforeAll(async () => {
  ctx = await startTestApp();
  sessions = [await ctx.login('anna'), await ctx.loginAs('carla', 'admin')];
});
afterAll(() => ctx?.close());

const NUL = '\u0000';
const BODIES: unknown[] = [
  undefined,
  {},
  [],
  'x',
  42,
  null,
  {
    cart: -1,
    part_number: 'x'.repeat(100_000),
    quantity: 1e20,
    store: { a: 1 },
    organization: [],
    name: null,
    status: 'x',
    user: 'x',
    password: 1,
    new_password: null,
    username: {},
    email: [],
    token: 5,
    code: {},
    restore_password_code: null,
    repeat_password: 1,
    shopping_list: 'x',
    scanned: 'yes',
    active_period: '99999999:00:00',
    carts_for_random_control: -5,
  },
  {
    cart: 1,
    part_number: `a${NUL}b`,
    quantity: 1,
    store: NUL,
    organization: `ORG${NUL}`,
    customer_order_number: NUL,
    order_mark: NUL,
    name: NUL,
    username: NUL,
    email: `${NUL}@x`,
    password: NUL,
    new_password: `${NUL}xxxxxxxxx`,
    token: NUL,
    status: NUL,
  },
  [{ weekday: 'monday', opening_time: '25:00', closing_time: null }],
  [{ weekday: NUL, opening_time: NUL, closing_time: NUL }],
  [null],
  [[]],
];
const PARAMS = ['abc', '99999999999', '%00', '-1', '1', 'a'.repeat(300), 'x%00y'];
const QUERIES = [
  '',
  '?page=-1&page_size=abc&ordering=zzz&active=maybe&created_after=2026-13-40&month=13&year=x&cart=1e5&user=-1&location_id=',
  '?gln=%00&name=%00&location_id=%00&favorites=%00&interval=%00&organization=%00&month=2&year=2026',
];
const INTERNALS = /\bat .+\.(ts|js):\d+|\bselect\b.+\bfrom\b|\binsert into\b|syntax error|stack/i;

it('answers hostile input on every route without a 500 or internals', async () => {
  const doc = (await ctx.request('GET', '/api/schema/')).body;
  const problems = new Set<string>();
  for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of Object.keys(operations)) {
      const params = path.includes('{') ? PARAMS : [''];
      for (const param of params) {
        const url = path.replace(/\{[^}]+\}/g, param);
        for (const query of QUERIES) {
          for (const body of method === 'get' ? [undefined] : BODIES) {
            for (const session of sessions) {
              const answer = await ctx.request(method.toUpperCase(), url + query, {
                token: session.token,
                body,
                headers: { 'authorization-upstream': `Bearer ${session.upstreamToken}` },
              });
              if (answer.status === 500 || INTERNALS.test(answer.text)) {
                problems.add(
                  `${method} ${url} ${query.slice(0, 20)}: ${answer.status} ${answer.text.slice(0, 120)}`,
                );
              }
            }
          }
        }
      }
    }
  }
  expect([...problems]).toEqual([]);
}, 300_000);
