import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT, DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import type { Fault } from '../../erp-simulator/faults.js';
import { type Simulator, startSimulator } from '../../erp-simulator/server.js';
import { RECORD_CHECKOUT, staleAfterMicros } from '../../src/carts/checkout.js';
import { orderMayBePlaced } from '../../src/carts/claims.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { DatabaseUnavailable } from '../../src/db/errors.js';
import { carts, checkouts } from '../../src/db/schema.js';
import { UpstreamClient } from '../../src/upstream/client.js';
import { UpstreamFailure } from '../../src/upstream/errors.js';
import { type Answer, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, createTestDatabase, onPostgres } from '../helpers/db.js';
import { cartWith, checkout, createStore, organizationsOf, postItem } from '../helpers/fixtures.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../helpers/wait.js';

/**
 * Checkout under partial failure (issue 18, finding 4): the lines stay frozen only when an
 * order may have been placed, for every kind of upstream failure before and after the order
 * is sent and for a database that is down when the claim is released; two attempts never
 * both record or both publish.
 *
 * Upstream is reached through a TCP proxy (refused connections: nobody listening); the
 * database on PostgreSQL through another (down: connections refused), on PGlite through a
 * switch in front of it.
 */

const GLN = DEMO_STORE_GLNS[0];
/** Long enough for a held call to outlast a second checkout on a busy machine. */
const TIMEOUT_MS = 4_000;
/** Longer than the upstream timeout: the call times out. */
const LATE_MS = 2 * TIMEOUT_MS;

let ctx: TestContext;
let sim: Simulator;
let upstreamProxy: TcpProxy;
let anna: Session;
let organization: string;
let database: SwitchableDatabase;
/** Published events by type and cart. */
const published: { type: string; cart: number }[] = [];
/** Armed: the next checkout throws between the upstream answer and the record (a crash). */
const crash = { armed: false };

interface SwitchableDatabase {
  database: Database;
  down(): Promise<void> | void;
  up(): void;
  /**
   * The next statement containing `text` (or named so: a prepared statement's later runs send
   * only its name) loses its connection: `before` it reaches the database, or `after` (it
   * runs and commits; its answer is lost).
   */
  cutOn(text: string, when: 'before' | 'after'): void;
  close(): Promise<void>;
}

/** PostgreSQL through a proxy that refuses connections while down. */
async function proxiedPostgres(): Promise<SwitchableDatabase> {
  const { url, drop } = await createPostgresDatabase();
  const target = new URL(url);
  const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  const opened = await openDatabase({
    url: proxy.urlFor(url),
    poolSize: 10,
    poolTimeoutMs: 500,
    statementTimeoutMs: 1_000,
  });
  return {
    database: opened,
    down: () => proxy.refuse(),
    up: () => proxy.restore(),
    cutOn: (text, when) => proxy.cutOn(text, when),
    async close() {
      await proxy.close();
      await drop();
    },
  };
}

/** PGlite behind a switch: while down, every statement fails as an unreachable server's would. */
async function switchedPglite(): Promise<SwitchableDatabase> {
  const inner = await createTestDatabase();
  let isDown = false;
  const refuse = () => Promise.reject(new DatabaseUnavailable('database down (test switch)'));
  let cut: { text: string; when: 'before' | 'after' } | undefined;
  const run: Database['run'] = async (statement, values) => {
    if (isDown) return refuse();
    const { text, name } =
      typeof statement === 'string' ? { text: statement, name: '' } : statement;
    if (!cut || !(text.includes(cut.text) || name === cut.text))
      return inner.run(statement, values);
    const { when } = cut;
    cut = undefined;
    if (when === 'after') await inner.run(statement, values);
    throw new DatabaseUnavailable(`connection cut ${when} the statement (test switch)`);
  };
  const database: Database = {
    ...inner,
    get queries() {
      return inner.queries;
    },
    run,
    transaction: (work) => (isDown ? refuse() : inner.transaction(work)),
    close: async () => {},
  };
  return {
    database,
    down: () => {
      isDown = true;
    },
    up: () => {
      isDown = false;
    },
    cutOn: (text, when) => {
      cut = { text, when };
    },
    close: () => inner.close(),
  };
}

beforeAll(async () => {
  sim = await startSimulator();
  const simPort = Number(new URL(sim.url).port);
  upstreamProxy = await TcpProxy.start({ host: '127.0.0.1', port: simPort });
  database = onPostgres ? await proxiedPostgres() : await switchedPglite();
  ctx = await startTestApp({
    sim,
    upstreamUrl: `http://127.0.0.1:${upstreamProxy.port}`,
    database: database.database,
    env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) },
    faults: {
      afterOrderPlaced: () => {
        if (!crash.armed) return;
        crash.armed = false;
        throw new Error('simulated crash after the order was placed');
      },
    },
  });
  for (const type of ['cart.checked_out', 'cart.checkout_failed'] as const) {
    ctx.app.events.subscribe(type, 'test', (event) => {
      published.push({ type, cart: event.cart.id });
    });
  }
  await createStore(ctx, GLN);
  anna = await ctx.login('anna');
  [organization] = await organizationsOf(ctx, anna.userId);
});
afterAll(async () => {
  database?.up();
  await Promise.all(replaced.map((client) => client.close()));
  await ctx?.close();
  await upstreamProxy?.close();
  await database?.close();
});

const replaced: UpstreamClient[] = [];
/**
 * A new upstream client, as at start: no service-account token yet and no open connection
 * (the same class the app is built with; the routes read `deps.upstream` at each call).
 */
function freshUpstream(): void {
  replaced.push(ctx.deps.upstream);
  ctx.deps.upstream = new UpstreamClient({
    url: `http://127.0.0.1:${upstreamProxy.port}`,
    timeoutMs: ctx.deps.config.upstreamTimeoutMs,
    serviceAccount: DEMO_SERVICE_ACCOUNT,
    connections: ctx.deps.config.upstreamConnections,
  });
}

let poSeq = 0;
async function newCart(): Promise<{ id: number; po: string }> {
  const po = `PO-F${++poSeq}`;
  const id = await cartWith(ctx, anna, { organization, customer_order_number: po, store: GLN }, [
    ['10001234', 2],
  ]);
  return { id, po };
}

const checkoutOf = (cartId: number) => checkout(ctx, anna, cartId);
const add = (cartId: number, part = 'P-MORE') => postItem(ctx, anna, cartId, part, 1);
const ordersOf = (po: string) => sim.orders.filter((o) => o.body.customer_order_number === po);
const callsOf = (route: string) => sim.calls.filter((c) => c.route === route).length;
const events = (type: string, cartId: number) =>
  published.filter((e) => e.type === type && e.cart === cartId).length;

async function records(cartId: number): Promise<number> {
  const rows = await ctx.database.db.select().from(checkouts).where(eq(checkouts.cartId, cartId));
  return rows.length;
}

async function claimOf(cartId: number) {
  const [row] = await ctx.database.db
    .select({ claim: carts.checkoutClaim, frozen: carts.checkoutFrozen })
    .from(carts)
    .where(eq(carts.id, cartId));
  return row;
}

function expectError(answer: Answer, status: number, code?: string) {
  expect(answer.status, answer.text).toBe(status);
  if (code) expect(answer.body).toMatchObject({ code });
}

/** Waits until the simulator has received `count` more calls of `route` than `before`. */
const received = (route: string, before: number, count = 1) =>
  until(() => callsOf(route) >= before + count, `${count} ${route} call(s) at the simulator`);

/** The checkout succeeds now: one order for the cart, one record, one published checkout. */
async function expectCheckedOutOnce(cart: { id: number; po: string }, orderId?: string) {
  const done = await checkoutOf(cart.id);
  expect(done.status, done.text).toBe(200);
  const orders = ordersOf(cart.po);
  expect(orders).toHaveLength(1);
  expect(done.body.order_id).toBe(orders[0].order_id);
  if (orderId) expect(done.body.order_id).toBe(orderId);
  expect(await records(cart.id)).toBe(1);
  expect(events('cart.checked_out', cart.id)).toBe(1);
  return done.body;
}

describe('a failed service-account login sends no order: the lines are not frozen', () => {
  // The service account has not logged in yet: the checkout logs in first.
  beforeEach(freshUpstream);
  const logins: [string, Fault | 'refused', number, string?][] = [
    ['a 502 gateway page', { type: 'html', status: 502 }, 502, 'upstream_error'],
    ['a 504 gateway page', { type: 'html', status: 504 }, 502, 'upstream_error'],
    ['an HTML 500', { type: 'html500' }, 502, 'upstream_error'],
    ['malformed JSON', { type: 'malformed' }, 502, 'upstream_error'],
    ['a cut connection', { type: 'reset' }, 502, 'upstream_error'],
    ['refused credentials (401)', { type: 'unauthorized' }, 502, 'upstream_error'],
    ['a timeout', { type: 'delay', ms: LATE_MS }, 504, 'upstream_timeout'],
    ['a refused connection', 'refused', 503, 'upstream_unavailable'],
    ['its 503 JSON', { type: 'unavailable' }, 503],
  ];

  it.each(logins)('%s', async (_what, fault, status, code) => {
    const cart = await newCart();
    const [tokens, orders] = [callsOf('auth.token'), callsOf('orders')];
    if (fault === 'refused') upstreamProxy.unplug();
    else sim.inject('auth.token', fault);
    let answer: Answer;
    try {
      answer = await checkoutOf(cart.id);
    } finally {
      await upstreamProxy.replug();
    }
    expectError(answer, status, code);
    if (fault !== 'refused') expect(callsOf('auth.token')).toBe(tokens + 1);
    expect(callsOf('orders')).toBe(orders);
    // Nothing was sent: the cart is neither claimed nor frozen, and no later attempt is
    // frozen because of this one, not even one that fails too.
    expect(await claimOf(cart.id)).toEqual({ claim: null, frozen: false });
    expect((await add(cart.id)).status).toBe(201);
    sim.inject('orders', { type: 'unavailable' });
    expect((await checkoutOf(cart.id)).status).toBe(503);
    expect((await add(cart.id, 'P-LAST')).status).toBe(201);
    expect(events('cart.checkout_failed', cart.id)).toBe(2);

    const record = await expectCheckedOutOnce(cart);
    expect(ordersOf(cart.po)[0].body.lines.map((l) => l.part_number)).toEqual([
      '10001234',
      'P-LAST',
      'P-MORE',
    ]);
    expect(record.cart).toBe(cart.id);
  });

  it('after a refused order (401): the login again fails, and the lines are not frozen', async () => {
    await expectCheckedOutOnce(await newCart());
    const cart = await newCart();
    // The service account is logged in by now: its token is refused once, then the new
    // login fails. The order was sent, but answered 401: nothing placed.
    sim.revokeTokens(DEMO_SERVICE_ACCOUNT.username);
    sim.inject('auth.token', { type: 'html', status: 502 });
    const orders = callsOf('orders');
    expectError(await checkoutOf(cart.id), 502, 'upstream_error');
    expect(callsOf('orders')).toBe(orders + 1);
    expect(await claimOf(cart.id)).toEqual({ claim: null, frozen: false });
    expect((await add(cart.id)).status).toBe(201);
    await expectCheckedOutOnce(cart);
  });
});

describe('the order refused before it is sent: the lines are not frozen', () => {
  it('a refused connection (nobody listening when the order goes out)', async () => {
    freshUpstream();
    const cart = await newCart();
    // The first login is held at the simulator; meanwhile nobody listens any more, so the
    // order (on a connection of its own kind, none open yet) is refused.
    const tokens = callsOf('auth.token');
    sim.inject('auth.token', { type: 'hang' });
    const pending = checkoutOf(cart.id);
    await received('auth.token', tokens);
    upstreamProxy.unplug({ cut: false });
    try {
      sim.release();
      expectError(await pending, 503, 'upstream_unavailable');
    } finally {
      await upstreamProxy.replug();
    }
    expect(ordersOf(cart.po)).toHaveLength(0);
    expect(await claimOf(cart.id)).toEqual({ claim: null, frozen: false });
    expect((await add(cart.id)).status).toBe(201);
    await expectCheckedOutOnce(cart);
  });

  it('its 503 JSON (nothing placed): passed through, the cart flagged', async () => {
    const cart = await newCart();
    sim.inject('orders', { type: 'unavailable' });
    const answer = await checkoutOf(cart.id);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('unavailable');
    expect(await claimOf(cart.id)).toEqual({ claim: null, frozen: false });
    expect((await add(cart.id)).status).toBe(201);
    await expectCheckedOutOnce(cart);
  });
});

describe('the order sent and its answer lost or spoilt: the lines stay frozen', () => {
  const spoilt: [string, Fault, number, string][] = [
    ['a cut connection', { type: 'reset', after: true }, 502, 'upstream_error'],
    ['a 502 gateway page', { type: 'html', status: 502, after: true }, 502, 'upstream_error'],
    ['a 504 gateway page', { type: 'html', status: 504, after: true }, 502, 'upstream_error'],
    ['malformed JSON', { type: 'malformed', after: true }, 502, 'upstream_error'],
    ['a timeout', { type: 'delay', ms: LATE_MS, after: true }, 504, 'upstream_timeout'],
  ];

  it.each(spoilt)('%s; the retry gets the order placed', async (_what, fault, status, code) => {
    const cart = await newCart();
    sim.inject('orders', fault);
    expectError(await checkoutOf(cart.id), status, code);
    const [placed] = ordersOf(cart.po);
    expect(placed).toBeDefined();
    // The claim is dropped (a retry may start at once), the lines stay as they were sent.
    expect(await claimOf(cart.id)).toEqual({ claim: null, frozen: true });
    expectError(await add(cart.id), 409, 'checkout_in_progress');
    // A later attempt that surely placed nothing itself says nothing about this one.
    sim.inject('orders', { type: 'unavailable' });
    expect((await checkoutOf(cart.id)).status).toBe(503);
    sim.inject('auth.token', { type: 'html', status: 502 });
    sim.revokeTokens(DEMO_SERVICE_ACCOUNT.username);
    expectError(await checkoutOf(cart.id), 502, 'upstream_error');
    expectError(await add(cart.id), 409, 'checkout_in_progress');
    // The same key and body: upstream's first answer, learnt now and recorded.
    await expectCheckedOutOnce(cart, placed.order_id);
    expect((await claimOf(cart.id)).frozen).toBe(false);
  });
});

describe('two attempts after a stale claim never both record or both publish', () => {
  const stale = () => ctx.clock.advance(staleAfterMicros(TIMEOUT_MS) / 1_000_000 + 1);

  it('the first attempt answered after the second recorded: one record, one event', async () => {
    const cart = await newCart();
    const orders = callsOf('orders');
    sim.inject('orders', { type: 'hang' });
    const first = checkoutOf(cart.id);
    await received('orders', orders);
    // The first attempt's claim goes stale while it waits; a second takes it over.
    stale();
    const second = await checkoutOf(cart.id);
    expect(second.status, second.text).toBe(200);
    sim.release();
    const late = await first;
    expect(late.status, late.text).toBe(200);
    expect(late.body).toEqual(second.body);
    expect(ordersOf(cart.po)).toHaveLength(1);
    expect(await records(cart.id)).toBe(1);
    expect(events('cart.checked_out', cart.id)).toBe(1);
  });

  it('the first attempt fails (placed nothing) while the second is in flight: it keeps the claim and the lines frozen', async () => {
    const cart = await newCart();
    const orders = callsOf('orders');
    sim.inject('orders', { type: 'hang', next: { type: 'unavailable' } });
    sim.inject('orders', { type: 'hang' });
    const first = checkoutOf(cart.id);
    await received('orders', orders);
    stale();
    const second = checkoutOf(cart.id);
    await received('orders', orders, 2);
    // The first learns it placed nothing; the second's order is still upstream.
    sim.release(1);
    expect((await first).status).toBe(503);
    expectError(await add(cart.id), 409, 'checkout_in_progress');
    expectError(await checkoutOf(cart.id), 409, 'checkout_in_progress');
    sim.release();
    const done = await second;
    expect(done.status, done.text).toBe(200);
    expect(ordersOf(cart.po)).toHaveLength(1);
    expect(await records(cart.id)).toBe(1);
    expect(events('cart.checked_out', cart.id)).toBe(1);
    expect((await checkoutOf(cart.id)).body).toEqual(done.body);
  });

  it('the first attempt fails after the second recorded: it answers the record', async () => {
    const cart = await newCart();
    const orders = callsOf('orders');
    sim.inject('orders', { type: 'hang', next: { type: 'unavailable' } });
    const first = checkoutOf(cart.id);
    await received('orders', orders);
    stale();
    const second = await checkoutOf(cart.id);
    expect(second.status, second.text).toBe(200);
    sim.release();
    const late = await first;
    expect(late.status, late.text).toBe(200);
    expect(late.body).toEqual(second.body);
    expect(await records(cart.id)).toBe(1);
    expect(events('cart.checked_out', cart.id)).toBe(1);
    expect(events('cart.checkout_failed', cart.id)).toBe(0);
  });

  it('two at once after a crash left the claim: one order, one record, one event', async () => {
    const cart = await newCart();
    crash.armed = true;
    expect((await checkoutOf(cart.id)).status).toBe(500);
    expect(ordersOf(cart.po)).toHaveLength(1);
    stale();
    const answers = await Promise.all([checkoutOf(cart.id), checkoutOf(cart.id)]);
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    const done = answers.filter((a) => a.status === 200);
    expect(done.length).toBeGreaterThanOrEqual(1);
    for (const answer of done) expect(answer.body.order_id).toBe(ordersOf(cart.po)[0].order_id);
    expect(ordersOf(cart.po)).toHaveLength(1);
    expect(await records(cart.id)).toBe(1);
    expect(events('cart.checked_out', cart.id)).toBe(1);
  });
});

describe('the database down when the claim is released', () => {
  /** The order's answer comes while the database is down; the claim cannot be released. */
  async function failWhileDown(cartId: number, fault: Fault): Promise<Answer> {
    const orders = callsOf('orders');
    sim.inject('orders', { type: 'hang', next: fault });
    const pending = checkoutOf(cartId);
    await received('orders', orders);
    await database.down();
    sim.release();
    return pending;
  }

  it('after a 503 (nothing placed): the upstream answer, then released and unfrozen once the database is back', async () => {
    const cart = await newCart();
    const answer = await failWhileDown(cart.id, { type: 'unavailable' });
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('unavailable');
    expect(events('cart.checkout_failed', cart.id)).toBe(0);
    // Still down: a retry is refused, and claims nothing.
    expectError(await checkoutOf(cart.id), 503, 'database_unavailable');
    database.up();
    // Released in the background as soon as the database answers, not once the claim is stale.
    await until(async () => (await claimOf(cart.id)).claim === null, 'the claim released');
    expect(await claimOf(cart.id)).toEqual({ claim: null, frozen: false });
    await until(() => events('cart.checkout_failed', cart.id) === 1, 'checkout_failed published');
    expect((await add(cart.id)).status).toBe(201);
    await expectCheckedOutOnce(cart);
  });

  it('after a cut answer (maybe placed): the upstream answer, then released, the lines still frozen', async () => {
    const cart = await newCart();
    const answer = await failWhileDown(cart.id, { type: 'reset', after: true });
    expectError(answer, 502, 'upstream_error');
    const [placed] = ordersOf(cart.po);
    database.up();
    await until(async () => (await claimOf(cart.id)).claim === null, 'the claim released');
    expect((await claimOf(cart.id)).frozen).toBe(true);
    expectError(await add(cart.id), 409, 'checkout_in_progress');
    await expectCheckedOutOnce(cart, placed.order_id);
  });

  it('the record refused: 503 database_unavailable; the retry records the same order once', async () => {
    const cart = await newCart();
    const answer = await failWhileDown(cart.id, { type: 'delay', ms: 0 });
    expectError(answer, 503, 'database_unavailable');
    const [placed] = ordersOf(cart.po);
    database.up();
    await until(async () => (await claimOf(cart.id)).claim === null, 'the claim released');
    expect((await claimOf(cart.id)).frozen).toBe(true);
    await expectCheckedOutOnce(cart, placed.order_id);
  });
});

// The record is one statement sent once (issue 33): a lost answer is settled by reading the
// record and the attempt that stored it (src/carts/checkout.ts, recordCheckout).
describe("the record's connection cut", () => {
  it('after the record was stored: the attempt reads it, answers it and publishes the checkout once', async () => {
    const cart = await newCart();
    database.cutOn(RECORD_CHECKOUT.name!, 'after');
    const answer = await checkoutOf(cart.id);
    expect(answer.status, answer.text).toBe(200);
    const orders = ordersOf(cart.po);
    expect(orders).toHaveLength(1);
    expect(answer.body.order_id).toBe(orders[0].order_id);
    expect(await records(cart.id)).toBe(1);
    expect(events('cart.checked_out', cart.id)).toBe(1);
    expect(await claimOf(cart.id)).toEqual({ claim: null, frozen: false });
    // Asked again: the stored record, and no second event.
    const again = await checkoutOf(cart.id);
    expect(again.body).toEqual(answer.body);
    expect(events('cart.checked_out', cart.id)).toBe(1);
  });

  it('before the record reached the database: 503, the claim released with the lines frozen; the retry records the same order once', async () => {
    const cart = await newCart();
    database.cutOn(RECORD_CHECKOUT.name!, 'before');
    expectError(await checkoutOf(cart.id), 503, 'database_unavailable');
    const [placed] = ordersOf(cart.po);
    expect(placed).toBeDefined();
    expect(await records(cart.id)).toBe(0);
    expect(events('cart.checked_out', cart.id)).toBe(0);
    await until(async () => (await claimOf(cart.id)).claim === null, 'the claim released');
    expect((await claimOf(cart.id)).frozen).toBe(true);
    await expectCheckedOutOnce(cart, placed.order_id);
  });
});

describe('orderMayBePlaced, per failure kind', () => {
  const cases: [string, UpstreamFailure | Error, boolean][] = [
    ['login: any failure', new UpstreamFailure('bad_response', 'auth.token', 502), false],
    [
      'login: timeout',
      new UpstreamFailure(
        'timeout',
        'auth.token',
        undefined,
        undefined,
        undefined,
        'waiting for answer',
      ),
      false,
    ],
    ['order: 503 JSON', new UpstreamFailure('unavailable', 'orders', 503, {}), false],
    ['order: refused connection', new UpstreamFailure('unavailable', 'orders'), false],
    ['order: user token refused', new UpstreamFailure('token_not_valid', 'orders', 401), false],
    ['order: 401 after the login again', new UpstreamFailure('bad_response', 'orders', 401), false],
    [
      'order: timeout waiting for a connection (never sent)',
      new UpstreamFailure('timeout', 'orders', undefined, undefined, undefined, 'queued'),
      false,
    ],
    [
      'order: timeout waiting for the answer',
      new UpstreamFailure(
        'timeout',
        'orders',
        undefined,
        undefined,
        undefined,
        'waiting for answer',
      ),
      true,
    ],
    ['order: HTML 502', new UpstreamFailure('bad_response', 'orders', 502), true],
    ['order: cut connection', new UpstreamFailure('bad_response', 'orders'), true],
    ['order: unusable 201', new UpstreamFailure('bad_response', 'orders', 201), true],
    ['order: 409 key reused', new UpstreamFailure('bad_response', 'orders', 409), true],
    ['not an upstream failure', new Error('bug'), true],
  ];
  it.each(cases)('%s', (_what, error, maybe) => {
    expect(orderMayBePlaced(error)).toBe(maybe);
  });
});
