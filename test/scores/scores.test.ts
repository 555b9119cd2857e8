import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { carts, checkouts, memberships, organizations, users } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser, cartWith, checkout, createStore, type Line } from '../helpers/fixtures.js';

let ctx: TestContext;
const GLN = DEMO_STORE_GLNS[0];

/** Simulator users added for the ranking: emil, frida, gus in ORG-1001 (with anna), hanna in ORG-1002. */
const EXTRA: [string, string[]][] = [
  ['emil', ['ORG-1001']],
  ['frida', ['ORG-1001']],
  ['gus', ['ORG-1001']],
  ['hanna', ['ORG-1002']],
  ['dora', []],
];

/** Logs in at the clock's current instant (tokens live 3600 s from there). */
async function signIn(username: string): Promise<Session> {
  const user = ctx.sim.data.users.find((u) => u.username === username);
  const answer = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
    body: { username, password: user?.password },
  });
  expect(answer.status, answer.text).toBe(200);
  const [row] = await ctx.database.db.select().from(users).where(eq(users.username, username));
  return { token: answer.body.token, upstreamToken: '', userId: row.id, username };
}

/** A cart of `username` with the given quantities, checked out through the API at `iso`. */
async function checkedOut(username: string, quantities: number[], iso: string): Promise<void> {
  ctx.clock.set(iso);
  const session = await signIn(username);
  const lines = quantities.map((quantity, i): Line => [`P-${i}`, quantity]);
  const cart = await cartWith(ctx, session, { store: GLN, customer_order_number: 'PO' }, lines);
  const done = await checkout(ctx, session, cart);
  expect(done.status, done.text).toBe(200);
  expect(done.body.created).toBe(iso);
}

/** Logs in at `iso` and asks for a month (scores or ranking). */
async function ask(username: string, iso: string, path: string) {
  ctx.clock.set(iso);
  const session = await signIn(username);
  return ctx.request('GET', `/api/v1/monthly-scores/${path}`, { token: session.token });
}

const scores = async (username: string, iso: string, month: number, year: number) => {
  const answer = await ask(username, iso, `?month=${month}&year=${year}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.map((w: { week: number; score: number | null }, i: number) => {
    expect(w.week).toBe(i);
    return w.score;
  });
};

beforeAll(async () => {
  ctx = await startTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000000' } });
  await createStore(ctx, GLN, { cartsForRandomControl: 0 });
  for (const [username, orgs] of EXTRA) {
    addSimUser(ctx, username, {
      password: `${username}-pass`,
      email: `${username}@example.com`,
      first_name: username[0].toUpperCase() + username.slice(1),
      last_name: 'Test',
      memberships: orgs.map((organization_id) => ({ organization_id, credit: true })),
    });
  }

  // March 2026 starts on a Sunday: week 0 is Mon 23 Feb – Sun 1 Mar, six weeks in all.
  await checkedOut('anna', [100], '2026-02-28T12:00:00.000000Z'); // February, week 0 of March
  await checkedOut('anna', [3], '2026-03-01T23:59:59.999999Z'); // week 0
  await checkedOut('anna', [4], '2026-03-02T00:00:00.000000Z'); // week 1, first instant
  await checkedOut('anna', [2, 3], '2026-03-08T23:59:59.000000Z'); // week 1, two lines
  await checkedOut('anna', [7], '2026-03-20T10:00:00.000000Z'); // week 3
  await checkedOut('anna', [11], '2026-03-31T23:59:59.999999Z'); // week 5 (Mon 30 Mar – Sun 5 Apr)
  await checkedOut('anna', [13], '2026-04-01T00:00:00.000000Z'); // April, not March
  await checkedOut('bruno', [50], '2026-03-10T08:00:00.000000Z');
  await checkedOut('emil', [40], '2026-03-05T08:00:00.000000Z');
  await checkedOut('frida', [10, 20], '2026-03-12T08:00:00.000000Z');
  await checkedOut('gus', [99], '2026-02-10T08:00:00.000000Z');
  await checkedOut('hanna', [12], '2026-03-25T08:00:00.000000Z');
  await signIn('dora');

  // A cart of anna with items but never checked out counts nowhere.
  ctx.clock.set('2026-03-18T08:00:00.000000Z');
  const anna = await signIn('anna');
  await cartWith(ctx, anna, { store: GLN, customer_order_number: 'PO' }, [['OPEN', 500]]);
});
afterAll(() => ctx?.close());

const AFTER = '2026-04-10T12:00:00.000000Z';

describe('GET monthly-scores/', () => {
  it("one entry per Monday-started week of the month, summing the caller's checkouts", async () => {
    expect(await scores('anna', AFTER, 3, 2026)).toEqual([3, 9, 0, 7, 0, 11]);
  });

  it('counts a week that straddles the month boundary only inside the month', async () => {
    // February 2026 (starts on a Sunday): five weeks; the 28th is in the last.
    expect(await scores('anna', AFTER, 2, 2026)).toEqual([0, 0, 0, 0, 100]);
    // April 2026 starts on a Wednesday: week 0 (Mon 30 Mar) holds only 1 April onwards.
    expect(await scores('anna', AFTER, 4, 2026)).toEqual([13, 0, null, null, null]);
  });

  it("counts only the caller's own checked-out carts, staff included", async () => {
    expect(await scores('bruno', AFTER, 3, 2026)).toEqual([0, 0, 50, 0, 0, 0]);
    expect(await scores('carla', AFTER, 3, 2026)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('weeks whose Monday 00:00 UTC is still ahead are null; started empty weeks 0', async () => {
    expect(await scores('anna', '2026-03-15T23:59:59.999999Z', 3, 2026)).toEqual([
      3,
      9,
      0,
      null,
      null,
      null,
    ]);
    expect(await scores('anna', '2026-03-16T00:00:00.000000Z', 3, 2026)).toEqual([
      3,
      9,
      0,
      7,
      null,
      null,
    ]);
    // Week 0 of March starts on 23 February: it has started before the month has.
    const early = await scores('anna', '2026-02-23T00:00:00.000000Z', 3, 2026);
    expect(early[0]).not.toBeNull();
    expect(early.slice(1)).toEqual(Array(5).fill(null));
    expect(await scores('anna', '2026-02-22T23:59:59.999999Z', 3, 2026)).toEqual(
      Array(6).fill(null),
    );
  });

  it('has 4, 5 or 6 weeks as the calendar falls', async () => {
    // February 2027 starts on a Monday and has exactly four weeks.
    expect(await scores('anna', AFTER, 2, 2027)).toEqual([null, null, null, null]);
    expect(await scores('anna', '2027-02-08T00:00:00.000000Z', 2, 2027)).toEqual([
      0,
      0,
      null,
      null,
    ]);
    expect(await scores('anna', AFTER, 1, 1970)).toEqual([0, 0, 0, 0, 0]);
    expect(await scores('anna', AFTER, 12, 9999)).toEqual(Array(5).fill(null));
  });

  it('refuses a missing or invalid month or year with 400 on that field', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['?year=2026', { month: ['This field is required.'] }],
      ['?month=3', { year: ['This field is required.'] }],
      ['', { month: ['This field is required.'], year: ['This field is required.'] }],
      ['?month=0&year=2026', { month: ['Ensure this value is greater than or equal to 1.'] }],
      ['?month=13&year=2026', { month: ['Ensure this value is less than or equal to 12.'] }],
      ['?month=-1&year=2026', { month: ['Ensure this value is greater than or equal to 1.'] }],
      ['?month=abc&year=2026', { month: ['A valid integer is required.'] }],
      ['?month=1.5&year=2026', { month: ['A valid integer is required.'] }],
      ['?month=&year=2026', { month: ['A valid integer is required.'] }],
      ['?month=3&year=1969', { year: ['Ensure this value is greater than or equal to 1970.'] }],
      ['?month=3&year=10000', { year: ['Ensure this value is less than or equal to 9999.'] }],
      ['?month=3&year=20x6', { year: ['A valid integer is required.'] }],
      ['?month=3&year=99999999999', { year: ['A valid integer is required.'] }],
      [
        '?month=13&year=1969',
        {
          month: ['Ensure this value is less than or equal to 12.'],
          year: ['Ensure this value is greater than or equal to 1970.'],
        },
      ],
    ];
    for (const [query, body] of cases) {
      for (const path of [query, `ranking/${query}`]) {
        const answer = await ask('anna', AFTER, path);
        expect(answer.status, path).toBe(400);
        expect(answer.body, path).toEqual(body);
      }
    }
  });
});

describe('GET monthly-scores/ranking/', () => {
  const person = (username: string, score: number, rank: number) => ({
    rank,
    user: {
      id: expect.any(Number),
      first_name: username[0].toUpperCase() + username.slice(1),
      last_name: expect.any(String),
      username,
    },
    score,
  });

  it('ranks the members of all the caller’s organizations; ties share a rank', async () => {
    const answer = await ask('anna', AFTER, 'ranking/?month=3&year=2026');
    expect(answer.status).toBe(200);
    // bruno (another organization) is not in it; gus (nothing in March) is, with 0.
    expect(answer.body).toEqual({
      month: 3,
      year: 2026,
      count: 5,
      results: [
        person('emil', 40, 1),
        person('anna', 30, 2),
        person('frida', 30, 2),
        person('hanna', 12, 4),
        person('gus', 0, 5),
      ],
      me: { rank: 2, score: 30 },
    });
    const anna = answer.body.results[1].user;
    expect(anna).toEqual({
      id: (await signIn('anna')).userId,
      first_name: 'Anna',
      last_name: 'Hoffmann',
      username: 'anna',
    });
  });

  it('me.score is the sum of the weekly scores', async () => {
    const weeks = await scores('anna', AFTER, 3, 2026);
    const answer = await ask('anna', AFTER, 'ranking/?month=3&year=2026');
    expect(answer.body.me.score).toBe(weeks.reduce((a: number, b: number) => a + b, 0));
  });

  it('counts checkouts inside the month only; everyone at 0 shares a rank', async () => {
    const answer = await ask('gus', AFTER, 'ranking/?month=2&year=2026');
    expect(answer.body.results).toEqual([
      person('anna', 100, 1),
      person('gus', 99, 2),
      person('emil', 0, 3),
      person('frida', 0, 3),
    ]);
    expect(answer.body.me).toEqual({ rank: 2, score: 99 });
    const empty = await ask('gus', AFTER, 'ranking/?month=3&year=1970');
    expect(empty.body.results.map((r: { rank: number }) => r.rank)).toEqual([1, 1, 1, 1]);
  });

  it('organization= ranks one of the caller’s organizations', async () => {
    const answer = await ask('anna', AFTER, 'ranking/?month=3&year=2026&organization=ORG-1002');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      count: 2,
      results: [person('anna', 30, 1), person('hanna', 12, 2)],
      me: { rank: 1, score: 30 },
    });
    const hanna = await ask('hanna', AFTER, 'ranking/?month=3&year=2026');
    expect(hanna.body.results).toEqual([person('anna', 30, 1), person('hanna', 12, 2)]);
  });

  it('an organization the caller is not a member of, or none at all, is 404', async () => {
    for (const org of ['ORG-1003', 'ORG-9999']) {
      const answer = await ask('anna', AFTER, `ranking/?month=3&year=2026&organization=${org}`);
      expect(answer.status, org).toBe(404);
      expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });

  it('a caller with no organization is ranked alone', async () => {
    const alone = await ask('dora', AFTER, 'ranking/?month=3&year=2026');
    expect(alone.body).toMatchObject({ count: 1, results: [person('dora', 0, 1)] });
    const bruno = await ask('bruno', AFTER, 'ranking/?month=3&year=2026');
    expect(bruno.body).toMatchObject({ count: 1, results: [person('bruno', 50, 1)] });
    expect(bruno.body.me).toEqual({ rank: 1, score: 50 });
  });

  it('all_organizations=True: staff rank the members of every organization; customers get 403', async () => {
    const denied = await ask('anna', AFTER, 'ranking/?month=3&year=2026&all_organizations=True');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('permission_denied');
    await ctx.database.db.update(users).set({ isStaff: true }).where(eq(users.username, 'dora'));
    try {
      const answer = await ask('dora', AFTER, 'ranking/?month=3&year=2026&all_organizations=True');
      expect(answer.status, answer.text).toBe(200);
      // bruno (ORG-1003) and anna's organizations together; dora (no organization) as the caller.
      expect(answer.body.results.slice(0, 5)).toEqual([
        person('bruno', 50, 1),
        person('emil', 40, 2),
        person('anna', 30, 3),
        person('frida', 30, 3),
        person('hanna', 12, 5),
      ]);
      expect(answer.body.me).toEqual({ rank: 6, score: 0 });
      const usernames = answer.body.results.map(
        (r: { user: { username: string } }) => r.user.username,
      );
      expect(usernames).toEqual(expect.arrayContaining(['gus', 'dora']));
      // Without it, the staff user is ranked among their own organizations as before.
      const own = await ask('dora', AFTER, 'ranking/?month=3&year=2026');
      expect(own.body).toMatchObject({ count: 1, results: [person('dora', 0, 1)] });
    } finally {
      await ctx.database.db.update(users).set({ isStaff: false }).where(eq(users.username, 'dora'));
    }
  });

  it('results stop at 100; count and me cover everyone', async () => {
    // 120 members of carla's organization, recorded directly, scores 1…120 in March 2027.
    const { db } = ctx.database;
    const [org] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.organizationId, 'ORG-1004'));
    const made = await db
      .insert(users)
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          username: `member-${String(i).padStart(3, '0')}`,
          created: '2027-01-01T00:00:00Z',
        })),
      )
      .returning({ id: users.id });
    await db
      .insert(memberships)
      .values(made.map((u) => ({ userId: u.id, organizationId: org.id })));
    const cartRows = await db
      .insert(carts)
      .values(
        made.map((u, i) => ({
          userId: u.id,
          organizationId: org.id,
          created: '2027-03-01T08:00:00Z',
          lastActivity: '2027-03-01T08:00:00Z',
          itemsCount: 1,
          totalQuantity: i + 1,
          checkedOut: true,
        })),
      )
      .returning({ id: carts.id });
    await db.insert(checkouts).values(
      cartRows.map((c) => ({
        cartId: c.id,
        created: '2027-03-02T08:00:00Z',
        orderId: `O-${c.id}`,
        orderNumber: `N-${c.id}`,
      })),
    );
    const answer = await ask('carla', '2027-04-01T00:00:00.000000Z', 'ranking/?month=3&year=2027');
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(121);
    expect(answer.body.results).toHaveLength(100);
    expect(answer.body.results[0]).toMatchObject({ rank: 1, score: 120 });
    expect(answer.body.results[0].user.username).toBe('member-119');
    expect(answer.body.results[99]).toMatchObject({ rank: 100, score: 21 });
    expect(answer.body.me).toEqual({ rank: 121, score: 0 });
    expect(
      answer.body.results.some((r: { user: { username: string } }) => r.user.username === 'carla'),
    ).toBe(false);
  });
});

describe('permissions', () => {
  const paths = [
    '/api/v1/monthly-scores/?month=3&year=2026',
    '/api/v1/monthly-scores/ranking/?month=3&year=2026',
  ];

  it.each(paths)('GET %s: anonymous 401; customers, staff and admins 200', async (path) => {
    ctx.clock.set(AFTER);
    const anna = await signIn('anna');
    const bruno = await signIn('bruno');
    const staff = await signIn('carla');
    const admin = await signIn('dora');
    await ctx.database.db.update(users).set({ isStaff: true }).where(eq(users.id, staff.userId));
    await ctx.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.userId));
    const cells: [string, string | undefined, number][] = [
      ['anonymous', undefined, 401],
      ['customer', anna.token, 200],
      ['another customer', bruno.token, 200],
      ['staff', staff.token, 200],
      ['admin', admin.token, 200],
    ];
    for (const [caller, token, status] of cells) {
      const answer = await ctx.request('GET', path, { token });
      expect(answer.status, caller).toBe(status);
      if (status === 401) {
        expect(answer.body).toEqual({ detail: expect.any(String), code: 'not_authenticated' });
      }
    }
  });
});
