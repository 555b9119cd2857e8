import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { checkedOutCart, createCart, createStore, loginStaff } from '../helpers/fixtures.js';

/**
 * GET controls/stats/ (issue 32): controls by outcome and kind, per store, from the rollups.
 * Every control the test makes through the API is written down here too (`made`), and each
 * answer is checked against the figures counted from that record: after creates, verifies,
 * rejects and random draws at checkout; over periods whose bounds fall on midnights, inside
 * days, on one day, or are open; under concurrent creates and concurrent verify and reject
 * of one control.
 */

const GLN_A = '4099990000318';
const GLN_B = '4099990000325';
/** Every checkout here is drawn for a random control (N = 1). */
const GLN_RANDOM = '4099990000332';
const GLN_RACE = '4099990000349';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let admin: Session;
const store: Record<string, number> = {};

type Outcome = 'pending' | 'verified' | 'rejected';
interface Made {
  id: number;
  store: number;
  created: string;
  random: boolean;
  outcome: Outcome;
}
const made = new Map<number, Made>();

const STATS = '/api/v1/controls/stats/';
const CONTROLS = '/api/v1/controls/';

beforeAll(async () => {
  // Tokens outlive the months the clock moves through.
  ctx = await startTestApp({ env: { JWT_TTL_SECONDS: '31536000' } });
  store.A = await createStore(ctx, GLN_A, { activePeriodSeconds: 3600 });
  store.B = await createStore(ctx, GLN_B, { activePeriodSeconds: 3600 });
  store.RANDOM = await createStore(ctx, GLN_RANDOM, {
    activePeriodSeconds: 3600,
    cartsForRandomControl: 1,
  });
  store.RACE = await createStore(ctx, GLN_RACE, { activePeriodSeconds: 3600 });
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await loginStaff(ctx);
  admin = await ctx.loginAs('carla', 'admin');
});
afterAll(() => ctx?.close());

const stats = (session: Session | undefined, query = '') =>
  ctx.request('GET', `${STATS}${query}`, { token: session?.token });

/** A chosen control of `user` in the store (an active cart made first), recorded. */
async function choose(user: Session, key: 'A' | 'B', status: 'pending' | 'verified' = 'pending') {
  await createCart(ctx, user, { store: key === 'A' ? GLN_A : GLN_B });
  const answer = await ctx.request('POST', CONTROLS, {
    token: admin.token,
    body: { user: user.userId, store: store[key], status },
  });
  expect(answer.status, answer.text).toBe(201);
  record(answer.body);
  return answer.body.id as number;
}

function record(control: {
  id: number;
  store: number;
  created: string;
  is_random: boolean;
  status: Outcome;
}) {
  made.set(control.id, {
    id: control.id,
    store: control.store,
    created: control.created,
    random: control.is_random,
    outcome: control.status,
  });
}

/** A checkout in the random store: the control it drew, recorded. */
async function drawn(user: Session): Promise<number> {
  const cart = await checkedOutCart(ctx, user, { store: GLN_RANDOM });
  const answer = await ctx.request('GET', `${CONTROLS}?store=${store.RANDOM}&page_size=100`, {
    token: admin.token,
  });
  const control = (answer.body.results as { id: number; carts: number[] }[]).find((c) =>
    c.carts.includes(cart),
  );
  expect(control, 'a control drawn on the checkout').toBeDefined();
  record(control as never);
  return control!.id;
}

const verify = (id: number) =>
  ctx.request('PATCH', `${CONTROLS}${id}/`, { token: admin.token, body: { status: 'verified' } });
const reject = (id: number) => ctx.request('DELETE', `${CONTROLS}${id}/`, { token: admin.token });

async function verified(id: number) {
  const answer = await verify(id);
  expect(answer.status, answer.text).toBe(200);
  made.get(id)!.outcome = 'verified';
}
async function rejected(id: number) {
  const answer = await reject(id);
  expect(answer.status, answer.text).toBe(204);
  made.get(id)!.outcome = 'rejected';
}

interface Counts {
  created: number;
  verified: number;
  rejected: number;
  pending: number;
}
const zero = (): Counts => ({ created: 0, verified: 0, rejected: 0, pending: 0 });

/** The figures counted from the record: created after `after`, before `before`, in `storeId`. */
function expected(filter: { store?: number; after?: string; before?: string }, byStore = false) {
  const instant = (t: string) => Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t);
  // Microseconds matter at a bound: compare the texts' instants, then the digits after ms.
  const micros = (t: string) => instant(t) * 1000 + Number(/\.\d{3}(\d{3})/.exec(t)?.[1] ?? 0);
  const totals = { random: zero(), chosen: zero() };
  const stores = new Map<number, { store: number; random: Counts; chosen: Counts }>();
  for (const c of made.values()) {
    if (filter.store !== undefined && c.store !== filter.store) continue;
    if (filter.after !== undefined && !(micros(c.created) > micros(filter.after))) continue;
    if (filter.before !== undefined && !(micros(c.created) < micros(filter.before))) continue;
    const kind = c.random ? 'random' : 'chosen';
    const own = stores.get(c.store) ?? { store: c.store, random: zero(), chosen: zero() };
    stores.set(c.store, own);
    for (const counts of [totals[kind], own[kind]]) {
      counts.created++;
      counts[c.outcome]++;
    }
  }
  return {
    ...totals,
    stores: byStore ? [...stores.values()].sort((a, b) => a.store - b.store) : null,
  };
}

async function expectFigures(filter: { store?: number; after?: string; before?: string }) {
  const query = new URLSearchParams();
  if (filter.store !== undefined) query.set('store', String(filter.store));
  if (filter.after !== undefined) query.set('created_after', filter.after);
  if (filter.before !== undefined) query.set('created_before', filter.before);
  for (const byStore of [false, true]) {
    if (byStore) query.set('by_store', 'True');
    const answer = await stats(staff, `?${query}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body, `${query}`).toEqual(expected(filter, byStore));
  }
}

describe('GET controls/stats/', () => {
  it('anonymous 401, customers 403; staff and admins 200', async () => {
    expect((await stats(undefined)).status).toBe(401);
    const refused = await stats(anna);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: expect.any(String), code: 'permission_denied' });
    for (const session of [staff, admin]) {
      const answer = await stats(session);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ random: zero(), chosen: zero(), stores: null });
    }
  });

  it('400 on an unreadable date or store, as the list', async () => {
    for (const [query, field] of [
      ['?created_after=2026-02-30', 'created_after'],
      ['?created_before=soon', 'created_before'],
      ['?store=x', 'store'],
      ['?by_store=maybe', 'by_store'],
    ]) {
      const answer = await stats(staff, query);
      expect(answer.status, query).toBe(400);
      expect(Object.keys(answer.body), query).toEqual([field]);
    }
  });

  it('counts creates, verifies and rejects, random draws at checkout included', async () => {
    ctx.clock.set('2026-04-06T10:00:00Z');
    const pending = await choose(anna, 'A');
    ctx.clock.advance(60);
    await choose(bruno, 'A', 'verified');
    ctx.clock.advance(60);
    const toVerify = await choose(anna, 'B');
    const toReject = await choose(bruno, 'B');
    await verified(toVerify);
    await rejected(toReject);
    const random = await drawn(anna);
    const randomRejected = await drawn(bruno);
    await verified(random);
    await rejected(randomRejected);
    // Verifying a verified control again changes nothing; a verified one cannot be rejected.
    expect((await verify(toVerify)).status).toBe(200);
    expect((await reject(toVerify)).status).toBe(400);
    expect((await reject(toReject)).status).toBe(404);
    expect(made.get(pending)!.outcome).toBe('pending');
    await expectFigures({});
    expect((await stats(staff)).body).toEqual({
      random: { created: 2, verified: 1, rejected: 1, pending: 0 },
      chosen: { created: 4, verified: 2, rejected: 1, pending: 1 },
      stores: null,
    });
    // Rejected controls are gone from the list, but not from the figures.
    const listed = await ctx.request('GET', `${CONTROLS}?store=${store.B}`, { token: staff.token });
    expect(listed.body.count).toBe(1);
    await expectFigures({ store: store.B });
  });

  it('answers periods exactly: whole days, partial first and last days, one day, open ends', async () => {
    // Controls over five days, at midnight, early, late and at a day's last microsecond.
    const times = [
      '2026-05-01T00:00:00.000000Z',
      '2026-05-01T08:00:00.000000Z',
      '2026-05-01T23:59:59.999999Z',
      '2026-05-02T12:00:00.000000Z',
      '2026-05-03T00:00:00.000001Z',
      '2026-05-03T18:30:00.000000Z',
      '2026-05-04T06:00:00.000000Z',
      '2026-05-05T23:00:00.000000Z',
    ];
    let i = 0;
    for (const time of times) {
      ctx.clock.set(time);
      const id = await choose(
        i % 2 ? anna : bruno,
        i % 3 ? 'A' : 'B',
        i % 4 ? 'pending' : 'verified',
      );
      if (i % 4 && i % 3 === 1) await rejected(id);
      else if (i % 4 && i % 5 === 2) await verified(id);
      ctx.clock.set(time);
      if (i % 4 === 3) await rejected(await drawn(anna));
      i++;
    }
    const bounds = [
      undefined,
      '2026-05-01',
      '2026-05-01T00:00:00Z',
      '2026-05-01T07:00:00Z',
      '2026-05-01T23:59:59.999999Z',
      '2026-05-02',
      '2026-05-02T12:00:00Z',
      '2026-05-03T00:00:00.000001Z',
      '2026-05-03T12:00:00+02:00',
      '2026-05-04',
      '2026-05-05T23:30:00Z',
      '2026-05-06',
    ];
    for (const after of bounds) {
      for (const before of bounds) {
        await expectFigures({ after, before });
      }
    }
    await expectFigures({
      store: store.A,
      after: '2026-05-01T07:00:00Z',
      before: '2026-05-04T12:00:00Z',
    });
    await expectFigures({ store: store.RANDOM, after: '2026-05-02', before: '2026-05-06' });
    // A store with no control in the period: zeros, and no row in the comparison.
    const none = await stats(staff, `?store=${store.RACE}&by_store=True`);
    expect(none.body).toEqual({ random: zero(), chosen: zero(), stores: [] });
  });

  it('stays exact under concurrent creates, and a verify racing a reject of one control', async () => {
    ctx.clock.set('2026-06-10T09:00:00Z');
    await createCart(ctx, anna, { store: GLN_RACE });
    const creates = await Promise.all(
      Array.from({ length: 12 }, () =>
        ctx.request('POST', CONTROLS, {
          token: admin.token,
          body: { user: anna.userId, store: store.RACE, status: 'pending' },
        }),
      ),
    );
    for (const answer of creates) {
      expect(answer.status, answer.text).toBe(201);
      record(answer.body);
    }
    // Each control verified and rejected at once: one of the two wins, the figures follow it.
    await Promise.all(
      creates.map(async ({ body: { id } }) => {
        const [v, r] = await Promise.all([verify(id), reject(id)]);
        const outcomes = [v.status, r.status].sort().join(',');
        // Verify first: the reject is a 400; reject first: the verify is a 404.
        expect(['200,400', '204,404']).toContain(outcomes);
        made.get(id)!.outcome = v.status === 200 ? 'verified' : 'rejected';
      }),
    );
    await expectFigures({ store: store.RACE });
    await expectFigures({});
    const race = (await stats(staff, `?store=${store.RACE}`)).body;
    expect(race.chosen.created).toBe(12);
    expect(race.chosen.pending).toBe(0);
    expect(race.chosen.verified + race.chosen.rejected).toBe(12);
  });
});
