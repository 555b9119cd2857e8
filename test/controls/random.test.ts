import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRITERION_OPTION } from '../../src/controls/random.js';
import { options } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { checkedOutCart, controlsOfCart, createCart, createStore } from '../helpers/fixtures.js';

const GLN_ONE = '4099991000010'; // N = 1
const GLN_FOUR = '4099991000027'; // N = 4
const GLN_ZERO = '4099991000034'; // N = 0: disabled
const GLN_USERS = '4099991000041'; // N = 4, used under the `users` criterion

interface Control {
  id: number;
  created: string;
  verified_at: string | null;
  is_random: boolean;
  status: string;
  user: number;
  store: number;
  carts: number[];
  controller: number | null;
}

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let admin: Session;
const store: Record<string, number> = {};

beforeAll(async () => {
  ctx = await startTestApp();
  store.ONE = await createStore(ctx, GLN_ONE, { cartsForRandomControl: 1 });
  store.FOUR = await createStore(ctx, GLN_FOUR, { cartsForRandomControl: 4 });
  store.ZERO = await createStore(ctx, GLN_ZERO, { cartsForRandomControl: 0 });
  store.USERS = await createStore(ctx, GLN_USERS, { cartsForRandomControl: 4 });
  await logins();
});
afterAll(() => ctx?.close());

/** Tokens live an hour of the test clock: log in again after moving to another day. */
async function logins() {
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  admin = await ctx.loginAs('carla', 'admin');
}

async function randomControls(): Promise<Control[]> {
  const answer = await ctx.request('GET', '/api/v1/controls/?is_random=True&page_size=100', {
    token: admin.token,
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.results;
}

/** Checks a new cart out with `random()` answering `value`; the random controls it made. */
async function checkoutWith(session: Session, gln: string | null, value: number) {
  const before = new Set((await randomControls()).map((c) => c.id));
  ctx.random.value = value;
  const cart = await checkedOutCart(ctx, session, { store: gln });
  const made = (await randomControls()).filter((c) => !before.has(c.id));
  return { cart, made };
}

async function setCriterion(value: string) {
  await ctx.database.db
    .insert(options)
    .values({ name: CRITERION_OPTION, value })
    .onConflictDoUpdate({ target: options.name, set: { value } });
}

describe('random controls under the cart criterion (no option set)', () => {
  it('N = 1 always draws: a pending control, no controller, holding the user’s active carts there', async () => {
    ctx.clock.set('2026-03-02T09:05:00.25Z');
    const open = await createCart(ctx, anna, { store: GLN_ONE });
    const elsewhere = await createCart(ctx, anna, { store: GLN_FOUR });
    const brunos = await createCart(ctx, bruno, { store: GLN_ONE });
    const { cart, made } = await checkoutWith(anna, GLN_ONE, 0.999999);
    expect(made).toEqual([
      {
        id: expect.any(Number),
        created: '2026-03-02T09:05:00.250000Z',
        verified_at: null,
        is_random: true,
        status: 'pending',
        user: anna.userId,
        store: store.ONE,
        carts: [open, cart],
        controller: null,
      },
    ]);
    expect(made[0].carts).not.toContain(elsewhere);
    expect(made[0].carts).not.toContain(brunos);
    // The customer sees it: in the control list and in the cart list's `controls`.
    const own = await ctx.request('GET', '/api/v1/controls/', { token: anna.token });
    expect(own.body.results.map((c: Control) => c.id)).toContain(made[0].id);
    expect(await controlsOfCart(ctx, anna, cart)).toEqual([made[0].id]);
    expect(await controlsOfCart(ctx, anna, open)).toEqual([made[0].id]);
  });

  it('a repeated checkout of the same cart answers the record and draws nothing', async () => {
    const { cart, made } = await checkoutWith(anna, GLN_ONE, 0);
    expect(made).toHaveLength(1);
    ctx.random.value = 0;
    const again = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(again.status).toBe(200);
    expect(await controlsOfCart(ctx, anna, cart)).toEqual([made[0].id]);
  });

  it('N = 4 draws when random() < 1/4: 0.2 draws, 0.25 and 0.3 do not', async () => {
    expect((await checkoutWith(bruno, GLN_FOUR, 0.2)).made).toHaveLength(1);
    expect((await checkoutWith(bruno, GLN_FOUR, 0.25)).made).toEqual([]);
    expect((await checkoutWith(bruno, GLN_FOUR, 0.3)).made).toEqual([]);
    // Each checkout is drawn on its own under the cart criterion.
    expect((await checkoutWith(bruno, GLN_FOUR, 0)).made).toHaveLength(1);
  });

  it('N = 0 never draws, even with random() = 0', async () => {
    expect((await checkoutWith(anna, GLN_ZERO, 0)).made).toEqual([]);
  });

  it('a warehouse cart (no store) is never drawn', async () => {
    expect((await checkoutWith(anna, null, 0)).made).toEqual([]);
  });
});

describe('random controls under the user criterion', () => {
  beforeAll(() => setCriterion('users'));

  it('only the first checkout of a user in a store per UTC day is drawn on', async () => {
    ctx.clock.set('2026-03-02T09:30:00Z');
    const first = await checkoutWith(anna, GLN_USERS, 0.2);
    expect(first.made).toHaveLength(1);
    expect(first.made[0]).toMatchObject({ user: anna.userId, store: store.USERS });
    // Second checkout the same day: not drawn, even with random() = 0.
    expect((await checkoutWith(anna, GLN_USERS, 0)).made).toEqual([]);

    // The first checkout spends the day's draw even when it misses.
    expect((await checkoutWith(bruno, GLN_USERS, 0.9)).made).toEqual([]);
    expect((await checkoutWith(bruno, GLN_USERS, 0)).made).toEqual([]);

    // Per store: the same user's first checkout in another store is drawn on.
    expect((await checkoutWith(anna, GLN_ONE, 0.5)).made).toHaveLength(1);
  });

  it('the next UTC day draws again', async () => {
    ctx.clock.set('2026-03-02T23:59:00Z');
    await logins();
    const late = await checkoutWith(anna, GLN_USERS, 0);
    expect(late.made).toEqual([]);
    ctx.clock.set('2026-03-03T00:00:01Z');
    const annaNext = await checkoutWith(anna, GLN_USERS, 0.2);
    expect(annaNext.made).toHaveLength(1);
    // Held: the carts still active (2 h active period), the 23:59 one included, not the 09:30 ones.
    expect(annaNext.made[0].carts).toEqual([late.cart, annaNext.cart]);
    expect((await checkoutWith(bruno, GLN_USERS, 0)).made).toHaveLength(1);
  });

  it('back to the cart criterion: every checkout is drawn on again', async () => {
    await setCriterion('carts');
    expect((await checkoutWith(anna, GLN_USERS, 0)).made).toHaveLength(1);
    expect((await checkoutWith(anna, GLN_USERS, 0)).made).toHaveLength(1);
    await ctx.database.db.delete(options).where(eq(options.name, CRITERION_OPTION));
    expect((await checkoutWith(anna, GLN_USERS, 0)).made).toHaveLength(1);
  });
});
