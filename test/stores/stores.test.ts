import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser, createStore } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let admin: Session;

// Names out of GLN order, two equal names: the list sorts by name, then id.
const GLN_A = '4000000000001';
const GLN_B = '4000000000002';
const GLN_C = '4000000000003';
const GLN_D = '4000000000004';
let ids: Record<string, number>;

beforeAll(async () => {
  ctx = await startTestApp();
  ids = {
    [GLN_A]: await createStore(ctx, GLN_A, { name: 'Zeta store', cartsForRandomControl: 3 }),
    [GLN_B]: await createStore(ctx, GLN_B, { name: 'Alpha store', activePeriodSeconds: 5400 }),
    [GLN_C]: await createStore(ctx, GLN_C, { name: 'Middle store' }),
    [GLN_D]: await createStore(ctx, GLN_D, { name: 'Alpha store' }),
  };
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await ctx.loginAs('carla', 'staff');
  admin = await adminUser('dora');
});
afterAll(() => ctx?.close());

/** An admin who is not staff: a user added to the simulator, logged in, granted the role. */
async function adminUser(username: string): Promise<Session> {
  const { password } = addSimUser(ctx, username, {
    like: 'carla',
    password: `${username}-pass`,
    email: `${username}@example.com`,
  });
  const answer = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
    body: { username, password },
  });
  expect(answer.status).toBe(200);
  const [user] = await ctx.database.db
    .update(users)
    .set({ isAdmin: true })
    .where(eq(users.username, username))
    .returning();
  expect(user.isStaff).toBe(false);
  return { token: answer.body.token, upstreamToken: '', userId: user.id, username };
}

const api = (method: string, path: string, token?: string, body?: unknown) =>
  ctx.request(method, `/api/v1${path}`, { token, body });

describe('GET stores/', () => {
  it('lists every store, ordered by name then id, in the Store form', async () => {
    const answer = await api('GET', '/stores/', anna.token);
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(4);
    expect(answer.body.results.map((s: { gln: string }) => s.gln)).toEqual([
      GLN_B,
      GLN_D,
      GLN_C,
      GLN_A,
    ]);
    expect(answer.body.results[0]).toEqual({
      id: ids[GLN_B],
      gln: GLN_B,
      name: 'Alpha store',
      active_period: '01:30:00',
      carts_for_random_control: 0,
      created: '2026-01-01T00:00:00.000001Z',
    });
  });

  it('is paged', async () => {
    const first = await api('GET', '/stores/?page_size=3', anna.token);
    expect(first.body.count).toBe(4);
    expect(first.body.results).toHaveLength(3);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${ctx.url}/api/v1/stores/?page_size=3&page=2`);
    const second = await api('GET', '/stores/?page_size=3&page=2', anna.token);
    expect(second.body.results.map((s: { gln: string }) => s.gln)).toEqual([GLN_A]);
    expect(second.body.next).toBeNull();
    const past = await api('GET', '/stores/?page_size=3&page=3', anna.token);
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.', code: 'not_found' });
  });
});

describe('GET stores/{gln}/', () => {
  it('answers the store', async () => {
    const answer = await api('GET', `/stores/${GLN_A}/`, bruno.token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: ids[GLN_A],
      gln: GLN_A,
      name: 'Zeta store',
      active_period: '02:00:00',
      carts_for_random_control: 3,
      created: '2026-01-01T00:00:00.000001Z',
    });
  });

  it('answers 404 for an unknown GLN', async () => {
    for (const gln of ['4999999999999', 'not-a-gln']) {
      const answer = await api('GET', `/stores/${gln}/`, anna.token);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });
});

describe('PATCH stores/{gln}/', () => {
  const patch = (body: unknown, gln = GLN_C, token = staff.token) =>
    api('PATCH', `/stores/${gln}/`, token, body);

  it('sets active_period from HH:MM:SS or HH:MM, hours past 23 included', async () => {
    const cases: [string, string][] = [
      ['03:15:30', '03:15:30'],
      ['04:45', '04:45:00'],
      ['100:00:00', '100:00:00'],
      ['00:00:00', '00:00:00'],
    ];
    for (const [given, written] of cases) {
      const answer = await patch({ active_period: given });
      expect(answer.status, given).toBe(200);
      expect(answer.body.active_period).toBe(written);
      const read = await api('GET', `/stores/${GLN_C}/`, anna.token);
      expect(read.body.active_period).toBe(written);
    }
  });

  it('refuses an invalid active_period with 400 on the field and changes nothing', async () => {
    await patch({ active_period: '02:00:00' });
    for (const value of [
      'abc',
      '',
      '1:60',
      '01:00:60',
      '25',
      '-01:00:00',
      '1:2:3:4',
      '999999:00:00',
    ]) {
      const answer = await patch({ active_period: value, name: 'Changed' });
      expect(answer.status, value).toBe(400);
      expect(Object.keys(answer.body), value).toEqual(['active_period']);
      expect(answer.body.active_period[0]).toMatch(/HH:MM:SS/);
    }
    for (const value of [7200, null, true]) {
      const answer = await patch({ active_period: value });
      expect(answer.status, String(value)).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['active_period']);
    }
    const read = await api('GET', `/stores/${GLN_C}/`, anna.token);
    expect(read.body).toMatchObject({ active_period: '02:00:00', name: 'Middle store' });
  });

  it('sets name (trimmed) and carts_for_random_control', async () => {
    const answer = await patch({ name: '  Middle store (new)  ', carts_for_random_control: 7 });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Middle store (new)', carts_for_random_control: 7 });
    const zero = await patch({ carts_for_random_control: 0 });
    expect(zero.body.carts_for_random_control).toBe(0);
    const read = await api('GET', `/stores/${GLN_C}/`, anna.token);
    expect(read.body).toMatchObject({ name: 'Middle store (new)', carts_for_random_control: 0 });
    await patch({ name: 'Middle store' });
  });

  it('refuses a blank name and a carts_for_random_control that is not an integer >= 0', async () => {
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: null }, 'name'],
      [{ name: 5 }, 'name'],
      [{ carts_for_random_control: -1 }, 'carts_for_random_control'],
      [{ carts_for_random_control: 1.5 }, 'carts_for_random_control'],
      [{ carts_for_random_control: '3' }, 'carts_for_random_control'],
      [{ carts_for_random_control: null }, 'carts_for_random_control'],
      [{ carts_for_random_control: 2_147_483_648 }, 'carts_for_random_control'],
    ];
    for (const [body, field] of cases) {
      const answer = await patch(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body), JSON.stringify(body)).toEqual([field]);
      expect(answer.body[field]).toEqual([expect.any(String)]);
    }
    const both = await patch({ name: ' ', active_period: 'x' });
    expect(Object.keys(both.body).sort()).toEqual(['active_period', 'name']);
  });

  it('ignores gln, id and unknown fields', async () => {
    const answer = await patch({
      gln: '4999999999999',
      id: 999,
      colour: 'red',
      name: 'Middle store',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: ids[GLN_C], gln: GLN_C, name: 'Middle store' });
    expect((await api('GET', '/stores/4999999999999/', anna.token)).status).toBe(404);
  });

  it('an empty body changes nothing and answers the store', async () => {
    const answer = await patch({});
    expect(answer.status).toBe(200);
    expect(answer.body.gln).toBe(GLN_C);
  });

  it('answers 404 for an unknown GLN', async () => {
    const answer = await patch({ name: 'X' }, '4999999999999');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });
});

describe('store hours', () => {
  const hours = (gln = GLN_D, token = anna.token) =>
    api('GET', `/stores/${gln}/store-hours/`, token);
  const setHours = (body: unknown, gln = GLN_D, token = staff.token) =>
    api('POST', `/stores/${gln}/store-hours/`, token, body);
  const closedWeek = [
    'monday',
    'tuesday',
    'wednesday',
    'thursday',
    'friday',
    'saturday',
    'sunday',
  ].map((weekday) => ({ weekday, opening_time: null, closing_time: null }));

  it('a store with no hours answers seven closed days, Monday first', async () => {
    const answer = await hours(GLN_A);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(closedWeek);
  });

  it('POST sets only the weekdays given; HH:MM is written HH:MM:SS', async () => {
    const answer = await setHours([
      { weekday: 'wednesday', opening_time: '07:00', closing_time: '18:30' },
      { weekday: 'saturday', opening_time: '08:00:15', closing_time: '13:00:00' },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    const week = [...closedWeek];
    week[2] = { weekday: 'wednesday', opening_time: '07:00:00', closing_time: '18:30:00' } as never;
    week[5] = { weekday: 'saturday', opening_time: '08:00:15', closing_time: '13:00:00' } as never;
    expect((await hours()).body).toEqual(week);

    // A second call changes Wednesday and Monday and leaves Saturday as it was.
    expect(
      (
        await setHours([
          { weekday: 'wednesday', opening_time: null, closing_time: null },
          { weekday: 'monday', opening_time: '00:00', closing_time: '23:59:59' },
        ])
      ).status,
    ).toBe(200);
    week[0] = { weekday: 'monday', opening_time: '00:00:00', closing_time: '23:59:59' } as never;
    week[2] = closedWeek[2];
    expect((await hours()).body).toEqual(week);
    // Hours belong to their store.
    expect((await hours(GLN_A)).body).toEqual(closedWeek);
  });

  it('refuses bad entries with "<index>.<field>" keys and writes nothing', async () => {
    const good = { weekday: 'friday', opening_time: '09:00', closing_time: '17:00' };
    const cases: [unknown, string][] = [
      [{ weekday: 'funday', opening_time: null, closing_time: null }, '1.weekday'],
      [{ weekday: 0, opening_time: null, closing_time: null }, '1.weekday'],
      [{ weekday: 'Monday', opening_time: null, closing_time: null }, '1.weekday'],
      [{ weekday: 'sunday', opening_time: '09:00', closing_time: null }, '1.closing_time'],
      [{ weekday: 'sunday', opening_time: null, closing_time: '09:00' }, '1.opening_time'],
      [{ weekday: 'sunday', opening_time: '10:00', closing_time: '10:00' }, '1.closing_time'],
      [{ weekday: 'sunday', opening_time: '18:00', closing_time: '09:00' }, '1.closing_time'],
      [{ weekday: 'sunday', opening_time: '24:00', closing_time: '25:00' }, '1.opening_time'],
      [{ weekday: 'sunday', opening_time: '7:00', closing_time: '09:00' }, '1.opening_time'],
      [{ weekday: 'sunday', opening_time: '07:00', closing_time: '09:60' }, '1.closing_time'],
      [{ weekday: 'sunday', opening_time: 700, closing_time: '09:00' }, '1.opening_time'],
      [{ weekday: 'sunday', closing_time: null }, '1.opening_time'],
      [{ opening_time: null, closing_time: null }, '1.weekday'],
      [{ weekday: 'friday', opening_time: null, closing_time: null }, '1.weekday'],
    ];
    const before = (await hours()).body;
    for (const [entry, key] of cases) {
      const answer = await setHours([good, entry]);
      expect(answer.status, JSON.stringify(entry)).toBe(400);
      expect(Object.keys(answer.body), JSON.stringify(entry)).toContain(key);
      expect(answer.body[key]).toEqual(expect.arrayContaining([expect.any(String)]));
    }
    const closing = await setHours([
      good,
      { weekday: 'sunday', opening_time: '18:00', closing_time: '09:00' },
    ]);
    expect(closing.body).toEqual({
      '1.closing_time': ['Closing time must be after opening time.'],
    });
    const unknown = await setHours([{ weekday: 'funday', opening_time: null, closing_time: null }]);
    expect(unknown.body).toEqual({ '0.weekday': ['"funday" is not a valid choice.'] });
    const twice = await setHours([good, { ...good, opening_time: '10:00' }]);
    expect(twice.body).toEqual({ '1.weekday': ['"friday" is given more than once.'] });
    const time = await setHours([{ ...good, opening_time: '7 am' }]);
    expect(time.body).toEqual({ '0.opening_time': ['Enter a valid time: HH:MM or HH:MM:SS.'] });
    // Friday (valid, first in each body) was never written.
    expect((await hours()).body).toEqual(before);
    expect(before[4]).toEqual({ weekday: 'friday', opening_time: null, closing_time: null });
  });

  it('refuses a body that is not a non-empty array under non_field_errors', async () => {
    const cases: unknown[] = [
      [],
      { weekday: 'monday', opening_time: null, closing_time: null },
      'monday',
      null,
      [{ weekday: 'monday', opening_time: null, closing_time: null }, 'monday'],
      Array.from({ length: 8 }, () => ({
        weekday: 'monday',
        opening_time: null,
        closing_time: null,
      })),
    ];
    for (const body of cases) {
      const answer = await setHours(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body), JSON.stringify(body)).toEqual(
        Array.isArray(body) && body.length === 2 ? ['1'] : ['non_field_errors'],
      );
    }
    expect((await setHours([])).body).toEqual({
      non_field_errors: ['This list may not be empty.'],
    });
    const none = await ctx.request('POST', `/api/v1/stores/${GLN_D}/store-hours/`, {
      token: staff.token,
    });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ non_field_errors: ['Expected a list of items.'] });
  });

  it('answers 404 for an unknown GLN', async () => {
    const read = await hours('4999999999999');
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    const write = await setHours(
      [{ weekday: 'monday', opening_time: null, closing_time: null }],
      '4999999999999',
    );
    expect(write.status).toBe(404);
  });
});

describe('permissions', () => {
  const hoursBody = [{ weekday: 'tuesday', opening_time: '07:00', closing_time: '18:00' }];
  const endpoints: [string, string, unknown][] = [
    ['GET', '/stores/', undefined],
    ['GET', `/stores/${GLN_B}/`, undefined],
    ['GET', `/stores/${GLN_B}/store-hours/`, undefined],
    ['PATCH', `/stores/${GLN_B}/`, { active_period: '01:30:00' }],
    ['POST', `/stores/${GLN_B}/store-hours/`, hoursBody],
  ];
  const callers = ['anonymous', 'customer', 'another customer', 'staff', 'admin'] as const;
  const expected: Record<string, number[]> = {
    // anonymous, customer, another customer, staff, admin
    GET: [401, 200, 200, 200, 200],
    PATCH: [401, 403, 403, 200, 200],
    POST: [401, 403, 403, 200, 200],
  };

  it.each(endpoints)('%s %s', async (method, path, body) => {
    const tokens = [undefined, anna.token, bruno.token, staff.token, admin.token];
    for (const [index, caller] of callers.entries()) {
      const answer = await api(method, path, tokens[index], body);
      expect(answer.status, caller).toBe(expected[method][index]);
      if (answer.status === 401) {
        expect(answer.body).toEqual({ detail: expect.any(String), code: 'not_authenticated' });
      }
      if (answer.status === 403) {
        expect(answer.body).toEqual({ detail: expect.any(String), code: 'permission_denied' });
      }
    }
  });

  it('a customer PATCH or POST changes nothing', async () => {
    await api('PATCH', `/stores/${GLN_B}/`, anna.token, { name: 'Hijacked' });
    await api('POST', `/stores/${GLN_B}/store-hours/`, anna.token, [
      { weekday: 'sunday', opening_time: '01:00', closing_time: '02:00' },
    ]);
    expect((await api('GET', `/stores/${GLN_B}/`, anna.token)).body.name).toBe('Alpha store');
    const sunday = (await api('GET', `/stores/${GLN_B}/store-hours/`, anna.token)).body[6];
    expect(sunday).toEqual({ weekday: 'sunday', opening_time: null, closing_time: null });
  });
});
