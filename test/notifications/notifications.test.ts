import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { users } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { cartWith, checkedOutCart, createStore, loginStaff } from '../helpers/fixtures.js';
import { type Client, connect, issueCode, open, refused, TIMESTAMP, wsUrl } from './client.js';

const PLAIN = DEMO_STORE_GLNS[0]; // no random controls
const DRAWN = DEMO_STORE_GLNS[1]; // carts_for_random_control = 1: every checkout is drawn
const CODES = '/api/v1/websocket-notifications/groups/';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let admin: Session;
const stores: Record<string, number> = {};
const clients: Client[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  stores.PLAIN = await createStore(ctx, PLAIN, { cartsForRandomControl: 0 });
  stores.DRAWN = await createStore(ctx, DRAWN, { cartsForRandomControl: 1 });
  await logins();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await ctx?.close();
});

/** JWTs live an hour of the test clock: log in again after moving it. */
async function logins() {
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await loginStaff(ctx);
  admin = await ctx.loginAs('carla', 'admin');
}

async function client(session: Session): Promise<Client> {
  const opened = await connect(ctx, session);
  clients.push(opened);
  return opened;
}

describe('POST websocket-notifications/groups/', () => {
  it('answers 201 with a fresh random code to every signed-in user', async () => {
    const matrix: [string, Session | undefined, number][] = [
      ['anonymous', undefined, 401],
      ['customer', anna, 201],
      ['another customer', bruno, 201],
      ['staff', staff, 201],
      ['admin', admin, 201],
    ];
    const codes = new Set<string>();
    for (const [who, session, status] of matrix) {
      const answer = await ctx.request('POST', CODES, { token: session?.token });
      expect(answer.status, `${who}: ${answer.text}`).toBe(status);
      if (status === 401) {
        expect(answer.body).toEqual({ detail: expect.any(String), code: 'not_authenticated' });
        continue;
      }
      expect(Object.keys(answer.body)).toEqual(['code']);
      // 32 random bytes, base64url.
      expect(answer.body.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      codes.add(answer.body.code);
    }
    expect(codes.size).toBe(4);
  });

  it('refuses a bad token with 401 token_not_valid', async () => {
    const answer = await ctx.request('POST', CODES, { token: 'not-a-jwt' });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('token_not_valid');
  });
  it("its OpenAPI description names each event's recipients as the events below test them", async () => {
    const schema = await ctx.request('GET', '/api/schema/');
    const description: string = schema.body.paths[CODES].post.description;
    expect(description).toContain(
      "`cart.checked_out` reaches the cart's owner and every staff user and admin",
    );
    expect(description).toContain(
      '`control.created` reaches the controlled user and every staff user and admin',
    );
    expect(description).toContain(
      '`cart.checkout_failed` and `control.verified` reach only the user concerned',
    );
  });
});

describe('GET /ws/notifications/ (upgrade)', () => {
  it('refuses a missing, unknown or expired code with 401 before the upgrade', async () => {
    const missing = await refused(`${ctx.url.replace(/^http/, 'ws')}/ws/notifications/`);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ detail: expect.any(String), code: 'not_authenticated' });

    const unknown = await refused(wsUrl(ctx.url, 'x'.repeat(43)));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ detail: expect.any(String), code: 'token_not_valid' });

    const code = await issueCode(ctx, anna);
    ctx.clock.advance(300); // WS_CODE_TTL_SECONDS: valid strictly before 300 s
    try {
      const expired = await refused(wsUrl(ctx.url, code));
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('token_not_valid');
    } finally {
      await logins();
    }
  });

  it('accepts a code until just before it expires', async () => {
    const code = await issueCode(ctx, anna);
    ctx.clock.advance(299);
    const opened = await open(wsUrl(ctx.url, code));
    clients.push(opened);
    expect(ctx.deps.notifier!.count(anna.userId)).toBeGreaterThan(0);
    opened.close();
    await opened.closed;
    await logins();
  });

  it('spends a code on the first connection', async () => {
    const code = await issueCode(ctx, anna);
    const first = await open(wsUrl(ctx.url, code));
    clients.push(first);
    const again = await refused(wsUrl(ctx.url, code));
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('token_not_valid');
    first.close();
  });

  it('answers a request without upgrade with 426 and does not spend the code', async () => {
    const code = await issueCode(ctx, anna);
    const plain = await ctx.request('GET', `/ws/notifications/?code=${code}`);
    expect(plain.status).toBe(426);
    expect(plain.body.code).toBe('upgrade_required');
    const opened = await open(wsUrl(ctx.url, code));
    clients.push(opened);
    opened.close();
  });
});

describe('events', () => {
  it('cart.checked_out reaches every connection of the user and staff and admins, no other customer', async () => {
    const annaOne = await client(anna);
    const annaTwo = await client(anna);
    const brunoSocket = await client(bruno);
    const staffSocket = await client(staff);
    const adminSocket = await client(admin);
    const cart = await cartWith(ctx, anna, { store: PLAIN });
    const checkout = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(checkout.status, checkout.text).toBe(200);
    for (const socket of [annaOne, annaTwo, staffSocket, adminSocket]) {
      const message = await socket.next();
      expect(message).toEqual({
        type: 'cart.checked_out',
        data: { cart, checkout: checkout.body },
        created: expect.stringMatching(TIMESTAMP),
      });
    }
    // Bruno's own checkout is the first thing Bruno hears: Anna's event never reached him.
    const brunoCart = await checkedOutCart(ctx, bruno, { store: PLAIN });
    const brunoMessage = await brunoSocket.next();
    expect(brunoMessage.type).toBe('cart.checked_out');
    expect(brunoMessage.data.cart).toBe(brunoCart);

    // A repeated checkout answers the record and is not a new event.
    const repeat = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(repeat.status).toBe(200);
    const next = await checkedOutCart(ctx, anna, { store: null });
    expect((await annaOne.next()).data.cart).toBe(next);
  });

  // Who is staff is known per socket: from its opening, then from each heartbeat's look-up
  // (which also closes sockets of ended sessions). A role granted or revoked while a socket
  // is open takes effect at the next beat.
  it('a role granted or revoked while a socket is open counts from the next heartbeat', async () => {
    const eve = await ctx.login('bruno');
    const socket = await client(eve);
    const setStaff = async (on: boolean) => {
      await ctx.database.db.update(users).set({ isStaff: on }).where(eq(users.id, eve.userId));
      await ctx.deps.notifier!.checkSessions();
    };
    try {
      await setStaff(true);
      const granted = await checkedOutCart(ctx, anna, { store: PLAIN });
      expect((await socket.next()).data.cart).toBe(granted);
      await setStaff(false);
      await checkedOutCart(ctx, anna, { store: PLAIN });
      // Bruno's own checkout is the next thing he hears: Anna's never reached him.
      const own = await checkedOutCart(ctx, eve, { store: PLAIN });
      expect((await socket.next()).data.cart).toBe(own);
    } finally {
      await ctx.database.db.update(users).set({ isStaff: false }).where(eq(users.id, eve.userId));
      socket.close();
    }
  });

  it('cart.checkout_failed carries the status and code of the failed attempt', async () => {
    const socket = await client(anna);
    const cart = await cartWith(ctx, anna, { store: PLAIN });

    ctx.sim.inject('orders', { type: 'unavailable' });
    const unavailable = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(unavailable.status).toBe(503);
    expect(await socket.next()).toEqual({
      type: 'cart.checkout_failed',
      // Upstream's own 503 JSON is passed through; it has no `code`.
      data: { cart, status: 503, code: null },
      created: expect.stringMatching(TIMESTAMP),
    });

    ctx.sim.inject('orders', { type: 'html500' });
    const broken = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(broken.status).toBe(502);
    expect((await socket.next()).data).toEqual({ cart, status: 502, code: 'upstream_error' });

    ctx.sim.inject('orders', { type: 'unauthorized' });
    const refusedToken = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
      headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
    });
    expect(refusedToken.status, refusedToken.text).toBe(401);
    expect((await socket.next()).data).toEqual({
      cart,
      status: 401,
      code: 'upstream_token_not_valid',
    });

    // A 404 (not the caller's cart) is no event of that cart.
    const foreign = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: bruno.token,
    });
    expect(foreign.status).toBe(404);

    // The retry succeeds: its event is the next one Anna hears (none for Bruno's 404).
    const retry = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(retry.status, retry.text).toBe(200);
    const done = await socket.next();
    expect(done.type).toBe('cart.checked_out');
    expect(done.data.cart).toBe(cart);
  });

  it('control.created (POST controls/) reaches the user, staff and admins, not others', async () => {
    const annaSocket = await client(anna);
    const staffSocket = await client(staff);
    const adminSocket = await client(admin);
    const brunoSocket = await client(bruno);
    const cart = await cartWith(ctx, anna, { store: PLAIN });
    const created = await ctx.request('POST', '/api/v1/controls/', {
      token: admin.token,
      body: { user: anna.userId, store: stores.PLAIN, status: 'pending' },
    });
    expect(created.status, created.text).toBe(201);
    const detail = await ctx.request('GET', `/api/v1/controls/${created.body.id}/`, {
      token: admin.token,
    });
    expect(detail.body.carts).toContain(cart);
    for (const socket of [annaSocket, staffSocket, adminSocket]) {
      expect(await socket.next()).toEqual({
        type: 'control.created',
        data: { control: detail.body },
        created: expect.stringMatching(TIMESTAMP),
      });
    }
    const brunoCart = await checkedOutCart(ctx, bruno, { store: PLAIN });
    expect((await brunoSocket.next()).data.cart).toBe(brunoCart);
  });

  it('control.created for a random control follows the checkout that drew it', async () => {
    const annaSocket = await client(anna);
    const staffSocket = await client(staff);
    const cart = await checkedOutCart(ctx, anna, { store: DRAWN });
    const checkedOut = await annaSocket.next();
    expect(checkedOut.type).toBe('cart.checked_out');
    const drawn = await annaSocket.next();
    expect(drawn.type).toBe('control.created');
    expect(drawn.data.control).toMatchObject({
      is_random: true,
      status: 'pending',
      controller: null,
      user: anna.userId,
      store: stores.DRAWN,
    });
    expect(drawn.data.control.carts).toContain(cart);
    const detail = await ctx.request('GET', `/api/v1/controls/${drawn.data.control.id}/`, {
      token: anna.token,
    });
    expect(drawn.data.control).toEqual(detail.body);
    expect(await staffSocket.next()).toEqual(checkedOut);
    expect(await staffSocket.next()).toEqual(drawn);
  });

  it('control.verified reaches the controlled user once, after the change', async () => {
    const annaSocket = await client(anna);
    await cartWith(ctx, anna, { store: PLAIN });
    const created = await ctx.request('POST', '/api/v1/controls/', {
      token: admin.token,
      body: { user: anna.userId, store: stores.PLAIN, status: 'pending' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await annaSocket.next()).type).toBe('control.created');

    const verify = () =>
      ctx.request('PATCH', `/api/v1/controls/${created.body.id}/`, {
        token: admin.token,
        body: { status: 'verified' },
      });
    expect((await verify()).status).toBe(200);
    const detail = await ctx.request('GET', `/api/v1/controls/${created.body.id}/`, {
      token: anna.token,
    });
    expect(detail.body.status).toBe('verified');
    expect(await annaSocket.next()).toEqual({
      type: 'control.verified',
      data: { control: detail.body },
      created: expect.stringMatching(TIMESTAMP),
    });
    // Verifying again changes nothing and sends nothing: the next event is the checkout.
    expect((await verify()).status).toBe(200);
    const cart = await checkedOutCart(ctx, anna, { store: null });
    const next = await annaSocket.next();
    expect(next.type).toBe('cart.checked_out');
    expect(next.data.cart).toBe(cart);
  });

  it('a closed connection leaves the user’s connections', async () => {
    const before = ctx.deps.notifier!.count(bruno.userId);
    const socket = await client(bruno);
    expect(ctx.deps.notifier!.count(bruno.userId)).toBe(before + 1);
    socket.close();
    await socket.closed;
    // The server sees the close frame before it answers the next request of this client.
    await expect.poll(() => ctx.deps.notifier!.count(bruno.userId), { timeout: 2000 }).toBe(before);
  });
});
