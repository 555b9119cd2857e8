import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import type { Fault } from '../../erp-simulator/faults.js';
import { confirmCheckout, unconfirmedCarts } from '../../src/admin/checkouts.js';
import { AdminError } from '../../src/admin/commands.js';
import { auditEvents, carts, checkouts } from '../../src/db/schema.js';
import { runRetention } from '../../src/retention/logic.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { cartWith, checkout, createStore, loginStaff, postItem } from '../helpers/fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: answers reshaped freely
type Loose = any;

/**
 * Issue 29, finding 2: the ERP places the order (201 or 202) and answers with an `order_id`
 * or `order_number` the service cannot store as sent. Never a 500, never a changed number
 * (U+FFFD for a lone surrogate), never a cart frozen for good: the cart is checked out
 * unconfirmed (502 `upstream_error` saying so), seen as checked out without a record by the
 * customer and staff, kept by retention, and the next checkout asks the ERP again under the
 * same key, recording its answer once it can be stored: one order upstream throughout
 * (decision 0001). The hostile answers come from the simulator's `answer` fault with
 * `after`: the order is placed, then its answer replaced.
 */

const GLN = DEMO_STORE_GLNS[0];
const DAY_MICROS = 86_400_000_000;

let ctx: TestContext;
let anna: Session;
let staff: Session;
let po = 0;
const logLines: { msg?: string; upstream?: Record<string, unknown> }[] = [];

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  ctx = await startTestApp({ logStream });
  await createStore(ctx, GLN);
  anna = await ctx.login('anna');
  staff = await loginStaff(ctx);
});
afterAll(() => ctx?.close());
afterEach(() => ctx.sim.clearFaults());

async function newCart(): Promise<{ cart: number; po: string }> {
  const number = `PO-ANSWER-${++po}`;
  const cart = await cartWith(ctx, anna, { store: GLN, customer_order_number: number }, [
    ['P-1', 2],
    ['P-2', 1],
  ]);
  return { cart, po: number };
}

const ordersOf = (number: string) =>
  ctx.sim.orders.filter((o) => o.body.customer_order_number === number);

async function cartRow(cart: number) {
  const [row] = await ctx.database.db.select().from(carts).where(eq(carts.id, cart));
  return row;
}

const recordsOf = (cart: number) =>
  ctx.database.db.select().from(checkouts).where(eq(checkouts.cartId, cart));

/** The cart as the cart list shows it to the session (checked-out carts only). */
async function listed(session: Session, cart: number): Promise<Loose> {
  const answer = await ctx.request('GET', '/api/v1/carts/?checkout=True&page_size=100', {
    token: session.token,
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.results.find((c: Loose) => c.id === cart);
}

/** The order placed, its answer replaced by `body` with `status`. */
const spoilt = (body: unknown, status = 201): Fault => ({
  type: 'answer',
  status,
  body,
  after: true,
});

const hostile: [string, (real: { order_id: string; order_number: string }) => unknown][] = [
  ['a NUL in order_number', (r) => ({ ...r, order_number: `${r.order_number}\u0000X` })],
  ['a lone surrogate in order_number', (r) => ({ ...r, order_number: `${r.order_number}\ud800` })],
  ['a lone surrogate in order_id', (r) => ({ ...r, order_id: `\udc00${r.order_id}` })],
  ['a line break in order_number', (r) => ({ ...r, order_number: `${r.order_number}\r\nX: y` })],
  ['an order_number of 256 characters', (r) => ({ ...r, order_number: 'N'.repeat(256) })],
  ['an order_id of 2,000 characters', (r) => ({ ...r, order_id: 'I'.repeat(2_000) })],
  ['an empty order_number', (r) => ({ ...r, order_number: '' })],
  ['order_number a number', (r) => ({ ...r, order_number: 700004 })],
  ['order_id an object', (r) => ({ ...r, order_id: { id: r.order_id } })],
  ['no order_id', (r) => ({ order_number: r.order_number })],
  ['an array', (r) => [r]],
];

describe('a placed order whose answer cannot be stored', () => {
  it.each(hostile)(
    '%s: 502, the cart checked out unconfirmed, the next checkout records it',
    async (_what, spoil) => {
      const { cart, po: number } = await newCart();
      ctx.sim.inject('orders', spoilt(spoil({ order_id: 'ord_x', order_number: 'SO-x' })));

      const first = await checkout(ctx, anna, cart);
      expect(first.status, first.text).toBe(502);
      expect(first.body).toEqual({
        detail: expect.stringContaining('accepted the order'),
        code: 'upstream_error',
      });
      expect(ordersOf(number)).toHaveLength(1);
      // Nothing stored from the answer, and the cart is not left frozen.
      expect(await recordsOf(cart)).toEqual([]);
      const row = await cartRow(cart);
      expect(row.checkedOut).toBe(true);
      expect(row.checkoutUnconfirmedAt).not.toBeNull();
      expect(row.checkoutFrozen).toBe(false);
      expect(row.checkoutClaim).toBeNull();
      // Closed to item changes like any checked-out cart: 400, not 409 for ever.
      expect((await postItem(ctx, anna, cart, 'P-3')).status).toBe(400);
      // The customer and staff see it checked out, without a record yet.
      expect((await listed(anna, cart))?.checkout).toBeNull();
      expect((await listed(staff, cart))?.checkout).toBeNull();

      // The ERP answers as it should now: the next checkout gets its first answer, recorded.
      const again = await checkout(ctx, anna, cart);
      expect(again.status, again.text).toBe(200);
      const [order] = ordersOf(number);
      expect(ordersOf(number)).toHaveLength(1);
      expect(again.body).toMatchObject({
        cart,
        order_id: order.order_id,
        order_number: order.order_number,
        timed_out: false,
      });
      expect((await cartRow(cart)).checkoutUnconfirmedAt).toBeNull();
      expect((await listed(anna, cart))?.checkout).toEqual(again.body);
      // And once recorded, the record: nothing asked upstream.
      const calls = ctx.sim.calls.length;
      expect((await checkout(ctx, anna, cart)).body).toEqual(again.body);
      expect(ctx.sim.calls.length).toBe(calls);
    },
  );

  it('a 202 (accepted for later) whose answer cannot be stored: the same', async () => {
    const { cart, po: number } = await newCart();
    ctx.sim.inject('orders', spoilt({ order_id: 'x', order_number: 'SO\u0000' }, 202));
    const first = await checkout(ctx, anna, cart);
    expect(first.status, first.text).toBe(502);
    expect((await cartRow(cart)).checkoutUnconfirmedAt).not.toBeNull();
    const again = await checkout(ctx, anna, cart);
    expect(again.status, again.text).toBe(200);
    expect(ordersOf(number)).toHaveLength(1);
    expect(again.body.order_number).toBe(ordersOf(number)[0].order_number);
  });

  it('an ERP that keeps answering so: every retry 502, one order, kept by retention, recorded once it answers well', async () => {
    const { cart, po: number } = await newCart();
    const bad = { order_id: 'ord_bad', order_number: 'SO-700004\ud800HOSTILE' };
    // The first call places the order; the retries are answered the same way by the ERP.
    ctx.sim.inject('orders', spoilt(bad));
    ctx.sim.inject('orders', { type: 'answer', status: 201, body: bad }, 3);
    for (let i = 0; i < 4; i++) {
      const answer = await checkout(ctx, anna, cart);
      expect(answer.status, answer.text).toBe(502);
      expect(answer.body.code).toBe('upstream_error');
    }
    expect(ordersOf(number)).toHaveLength(1);
    expect(await recordsOf(cart)).toEqual([]);
    const unconfirmedAt = (await cartRow(cart)).checkoutUnconfirmedAt;
    expect(unconfirmedAt).not.toBeNull();

    // Retention removes checked-out carts past the cutoff, but not this one.
    await runRetention(ctx.database, {
      days: 1,
      auditDays: 0,
      nowMicros: ctx.clock.nowMicros() + 10 * DAY_MICROS,
    });
    expect(await cartRow(cart)).toBeDefined();
    expect((await cartRow(cart)).checkoutUnconfirmedAt).toBe(unconfirmedAt);

    const resolved = await checkout(ctx, anna, cart);
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.order_number).toBe(ordersOf(number)[0].order_number);
    expect(ordersOf(number)).toHaveLength(1);
    // No U+FFFD, nor anything else than the ERP's own number.
    const [record] = await recordsOf(cart);
    expect(record.orderNumber).toBe(ordersOf(number)[0].order_number);
    expect(record.orderNumber).not.toContain('\ufffd');
  });

  it('a retry of an unconfirmed cart that fails otherwise releases its claim: the next one records', async () => {
    const { cart, po: number } = await newCart();
    ctx.sim.inject('orders', spoilt({ order_id: 'ord_1', order_number: 'SO\ud800' }));
    expect((await checkout(ctx, anna, cart)).status).toBe(502);
    ctx.sim.inject('orders', { type: 'html500' });
    const failed = await checkout(ctx, anna, cart);
    expect(failed.status).toBe(502);
    expect(failed.body.detail).not.toContain('accepted the order');
    const row = await cartRow(cart);
    expect(row.checkoutClaim).toBeNull();
    expect(row.checkoutUnconfirmedAt).not.toBeNull();
    ctx.sim.inject('orders', { type: 'unavailable' });
    const unavailable = await checkout(ctx, anna, cart);
    expect(unavailable.status).toBe(503);
    const done = await checkout(ctx, anna, cart);
    expect(done.status, done.text).toBe(200);
    expect(done.body.order_number).toBe(ordersOf(number)[0].order_number);
    expect(ordersOf(number)).toHaveLength(1);
  });

  it('is logged for operators: route, status and the offending field, never the value', async () => {
    const { cart } = await newCart();
    const logged = logLines.length;
    ctx.sim.inject('orders', spoilt({ order_id: 'ord_1', order_number: 'SO-HOSTILE\u0000' }));
    expect((await checkout(ctx, anna, cart)).status).toBe(502);
    const failure = logLines.slice(logged).find((l) => l.msg === 'upstream call failed');
    expect(failure?.upstream).toMatchObject({
      route: 'orders',
      kind: 'bad_response',
      status: 201,
      cause: expect.stringMatching(/^answer does not fit the contract: \/order_number /),
    });
    expect(JSON.stringify(logLines.slice(logged))).not.toContain('HOSTILE');
  });

  it('the operator records the order as the ERP shows it: listed, confirmed once, audited, seen by the customer', async () => {
    const { cart, po: number } = await newCart();
    const bad = { order_id: 'ord_bad', order_number: 'SO\u0000' };
    ctx.sim.inject('orders', spoilt(bad));
    expect((await checkout(ctx, anna, cart)).status).toBe(502);
    const { db } = ctx.database;
    expect((await unconfirmedCarts(db)).map((c) => c.cart)).toContain(cart);
    const [order] = ordersOf(number);

    // Values an ERP answer could not hold are refused here too.
    for (const orderNumber of ['', 'SO\u0000', 'SO\n1', 'S'.repeat(256), 'SO\ud800']) {
      await expect(
        confirmCheckout(db, { cart, orderId: order.order_id, orderNumber, queued: false }, 1),
      ).rejects.toBeInstanceOf(AdminError);
    }
    const input = {
      cart,
      orderId: order.order_id,
      orderNumber: order.order_number,
      queued: false,
    };
    await confirmCheckout(db, input, ctx.clock.nowMicros());
    expect((await unconfirmedCarts(db)).map((c) => c.cart)).not.toContain(cart);
    // Once only: the cart is no longer unconfirmed.
    await expect(confirmCheckout(db, input, ctx.clock.nowMicros())).rejects.toBeInstanceOf(
      AdminError,
    );
    const events = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.kind, 'checkout.confirmed'), eq(auditEvents.objectId, cart)));
    expect(events).toHaveLength(1);
    expect(events[0].via).toBe('admin-command');

    // The customer's retry answers the record, asking nothing upstream.
    const calls = ctx.sim.calls.length;
    const answer = await checkout(ctx, anna, cart);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ cart, order_number: order.order_number });
    expect(ctx.sim.calls.length).toBe(calls);
    expect((await listed(anna, cart))?.checkout).toEqual(answer.body);
  });

  it('an order answer that is well-formed still records at once (the check is no blanket refusal)', async () => {
    const { cart, po: number } = await newCart();
    const answer = await checkout(ctx, anna, cart);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.order_number).toBe(ordersOf(number)[0].order_number);
    expect((await cartRow(cart)).checkoutUnconfirmedAt).toBeNull();
  });

  it('a 201 past the byte bound (not read whole): the uncertain case, lines frozen until a retry reads it', async () => {
    const { cart, po: number } = await newCart();
    ctx.sim.inject('orders', spoilt({ order_id: 'I'.repeat(100_000), order_number: 'SO-1' }));
    expect((await checkout(ctx, anna, cart)).status).toBe(502);
    const row = await cartRow(cart);
    expect(row.checkedOut).toBe(false);
    expect(row.checkoutUnconfirmedAt).toBeNull();
    expect((await postItem(ctx, anna, cart, 'P-3')).status).toBe(409);
    const again = await checkout(ctx, anna, cart);
    expect(again.status, again.text).toBe(200);
    expect(ordersOf(number)).toHaveLength(1);
  });

  it('a 200 with a well-formed body (not a contract answer) still freezes the lines: the order may be placed', async () => {
    const { cart } = await newCart();
    ctx.sim.inject('orders', { type: 'answer', body: { order_id: 'x', order_number: 'y' } });
    const answer = await checkout(ctx, anna, cart);
    expect(answer.status).toBe(502);
    const row = await cartRow(cart);
    expect(row.checkedOut).toBe(false);
    expect(row.checkoutUnconfirmedAt).toBeNull();
    expect((await postItem(ctx, anna, cart, 'P-3')).status).toBe(409);
  });
});
