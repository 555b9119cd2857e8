import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  carts,
  idempotencyKeys,
  items,
  shoppingListItems,
  shoppingLists,
} from '../../src/db/schema.js';
import { PURGE_BATCH } from '../../src/idempotency/logic.js';
import { type Answer, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createCart, organizationsOf } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let bruno: Session;

beforeAll(async () => {
  ctx = await startTestApp();
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
});
afterAll(() => ctx?.close());

const post = (session: Session, path: string, body: unknown, key?: string): Promise<Answer> =>
  ctx.request('POST', `/api/v1/${path}`, {
    token: session.token,
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

async function line(cart: number) {
  const rows = await ctx.database.db.select().from(items).where(eq(items.cartId, cart));
  const [row] = await ctx.database.db.select().from(carts).where(eq(carts.id, cart));
  return { lines: rows.length, quantity: rows[0]?.quantity, cart: row };
}

/** Moves the clock; the sessions log in again (tokens expire by the same clock). */
async function later(seconds: number): Promise<void> {
  ctx.clock.advance(seconds);
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
}

async function keyRows(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(idempotencyKeys);
  return row.n;
}

/** Sends a raw HTTP request and drops the connection as soon as the answer starts: it is lost. */
function sendAndLoseAnswer(path: string, token: string, key: string, body: unknown): Promise<void> {
  const { port } = new URL(ctx.url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
          `idempotency-key: ${key}\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
    });
    socket.once('data', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

describe('Idempotency-Key on POST items/', () => {
  it('answers a retry whose first answer was lost with that answer, adding the quantity once', async () => {
    const cart = await createCart(ctx, anna, { store: null });
    const key = randomUUID();
    const body = { cart, part_number: 'PN-LOST', quantity: 3 };
    await sendAndLoseAnswer('/api/v1/items/', anna.token, key, body);
    ctx.clock.advance(5);
    const retry = await post(anna, 'items/', body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toMatchObject({ cart, part_number: 'PN-LOST', quantity: 3 });
    const state = await line(cart);
    expect([state.lines, state.quantity, state.cart.totalQuantity]).toEqual([1, 3, 3]);
  });

  it('answers a repeat with the first status and body, byte for byte', async () => {
    const cart = await createCart(ctx, anna, { store: null });
    const key = randomUUID();
    const first = await post(anna, 'items/', { cart, part_number: 'PN-1', quantity: 2 }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // A later add of the same part without the key merges; the repeat still says 2.
    await post(anna, 'items/', { cart, part_number: 'PN-1', quantity: 5 });
    // Key order does not make another request.
    const repeat = await post(anna, 'items/', { quantity: 2, part_number: 'PN-1', cart }, key);
    expect(repeat.status).toBe(201);
    expect(repeat.text).toBe(first.text);
    expect((await line(cart)).quantity).toBe(7);
  });

  it('gives 20 concurrent repeats one line with the quantity added once, and one answer', async () => {
    const cart = await createCart(ctx, anna, { store: null });
    const key = randomUUID();
    const body = { cart, part_number: 'PN-RACE', quantity: 4 };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(anna, 'items/', body, key)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    const state = await line(cart);
    expect([state.lines, state.quantity, state.cart.itemsCount, state.cart.totalQuantity]).toEqual([
      1, 4, 1, 4,
    ]);
  });

  it('refuses the same key with another body: 422 idempotency_key_reused, nothing changed', async () => {
    const cart = await createCart(ctx, anna, { store: null });
    const key = randomUUID();
    expect(
      (await post(anna, 'items/', { cart, part_number: 'PN-M', quantity: 1 }, key)).status,
    ).toBe(201);
    const other = await post(anna, 'items/', { cart, part_number: 'PN-M', quantity: 9 }, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ detail: expect.any(String), code: 'idempotency_key_reused' });
    expect((await line(cart)).quantity).toBe(1);
  });

  it('refuses the same key on another operation: 422', async () => {
    const key = randomUUID();
    expect((await post(anna, 'shopping-lists/', { name: 'Site A' }, key)).status).toBe(201);
    const cart = await createCart(ctx, anna, { store: null });
    const other = await post(anna, 'items/', { cart, part_number: 'PN-O', quantity: 1 }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect((await line(cart)).lines).toBe(0);
  });

  it('keeps keys per user: the same key of another user is another request', async () => {
    const key = randomUUID();
    const annas = await post(anna, 'shopping-lists/', { name: 'Mine' }, key);
    const brunos = await post(bruno, 'shopping-lists/', { name: 'Mine' }, key);
    expect([annas.status, brunos.status]).toEqual([201, 201]);
    expect(brunos.headers.get('idempotent-replayed')).toBeNull();
    expect(brunos.headers.get('location')).not.toBe(annas.headers.get('location'));
  });

  it('is a 400 on the header for a key over 255 characters, and takes 255', async () => {
    const cart = await createCart(ctx, anna, { store: null });
    const long = await post(
      anna,
      'items/',
      { cart, part_number: 'PN-L', quantity: 1 },
      'k'.repeat(256),
    );
    expect(long.status).toBe(400);
    expect(long.body).toEqual({
      'idempotency-key': ['Ensure this field has no more than 255 characters.'],
    });
    const empty = await post(anna, 'items/', { cart, part_number: 'PN-L', quantity: 1 }, '');
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body)).toEqual(['idempotency-key']);
    expect((await line(cart)).lines).toBe(0);
    const longest = await post(
      anna,
      'items/',
      { cart, part_number: 'PN-L', quantity: 1 },
      'k'.repeat(255),
    );
    expect(longest.status).toBe(201);
  });

  it('changes nothing without the header: a repeat adds again', async () => {
    const cart = await createCart(ctx, anna, { store: null });
    const body = { cart, part_number: 'PN-N', quantity: 2 };
    await post(anna, 'items/', body);
    await post(anna, 'items/', body);
    expect((await line(cart)).quantity).toBe(4);
  });

  it('keeps no answer for an error: the key is unused after it', async () => {
    const others = await createCart(ctx, bruno, { store: null });
    const key = randomUUID();
    const refused = await post(
      anna,
      'items/',
      { cart: others, part_number: 'PN-E', quantity: 1 },
      key,
    );
    expect(refused.status).toBe(400);
    const cart = await createCart(ctx, anna, { store: null });
    const next = await post(anna, 'items/', { cart, part_number: 'PN-E', quantity: 1 }, key);
    expect(next.status).toBe(201);
    expect(next.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Idempotency-Key on the other creating writes', () => {
  it('POST carts/: a repeat answers the first cart and makes no second one', async () => {
    const key = randomUUID();
    const [organization] = await organizationsOf(ctx, anna.userId);
    const body = { store: null, organization, customer_order_number: 'PO-R', order_mark: '' };
    const first = await post(anna, 'carts/', body, key);
    ctx.clock.advance(60);
    const repeat = await post(anna, 'carts/', body, key);
    expect([first.status, repeat.status]).toEqual([201, 201]);
    expect(repeat.text).toBe(first.text);
    const rows = await ctx.database.db
      .select()
      .from(carts)
      .where(eq(carts.customerOrderNumber, 'PO-R'));
    expect(rows).toHaveLength(1);
  });

  it('POST shopping-lists/: a repeat answers 201 with the first list in Location', async () => {
    const key = randomUUID();
    const first = await post(anna, 'shopping-lists/', { name: 'Repeat me' }, key);
    const repeat = await post(anna, 'shopping-lists/', { name: 'Repeat me' }, key);
    expect([first.status, repeat.status]).toEqual([201, 201]);
    expect(first.headers.get('location')).toMatch(/\/api\/v1\/shopping-lists\/\d+\/$/);
    expect(repeat.headers.get('location')).toBe(first.headers.get('location'));
    expect(repeat.text).toBe('');
    const rows = await ctx.database.db
      .select()
      .from(shoppingLists)
      .where(eq(shoppingLists.name, 'Repeat me'));
    expect(rows).toHaveLength(1);
  });

  it('POST shopping-list-items/: a repeat answers the first item', async () => {
    const list = await post(anna, 'shopping-lists/', { name: 'For items' });
    const id = Number(/(\d+)\/$/.exec(list.headers.get('location')!)![1]);
    const key = randomUUID();
    const body = { shopping_list: id, name: 'Screws', quantity: 3 };
    const first = await post(anna, 'shopping-list-items/', body, key);
    const repeat = await post(anna, 'shopping-list-items/', body, key);
    expect([first.status, repeat.status]).toEqual([201, 201]);
    expect(repeat.text).toBe(first.text);
    const rows = await ctx.database.db
      .select()
      .from(shoppingListItems)
      .where(eq(shoppingListItems.shoppingListId, id));
    expect(rows).toHaveLength(1);
  });

  it('documents the header on the four operations of the OpenAPI document', async () => {
    const doc = (await ctx.request('GET', '/api/schema/')).body;
    for (const path of ['carts/', 'items/', 'shopping-lists/', 'shopping-list-items/']) {
      const parameters = doc.paths[`/api/v1/${path}`].post.parameters;
      const header = parameters.find((p: { name: string }) => p.name === 'idempotency-key');
      expect(header, path).toMatchObject({ in: 'header', required: false });
      expect(header.schema.maxLength).toBe(255);
      expect(header.description ?? header.schema.description).toMatch(/idempotency_key_reused/);
    }
  });
});

describe('keys expire after 24 hours', () => {
  it('runs a repeat again once the key is older than 24 hours', async () => {
    const cart = await createCart(ctx, anna, { store: null });
    const key = randomUUID();
    const body = { cart, part_number: 'PN-T', quantity: 2 };
    expect((await post(anna, 'items/', body, key)).status).toBe(201);
    await later(24 * 3600 - 1);
    expect((await post(anna, 'items/', body, key)).headers.get('idempotent-replayed')).toBe('true');
    expect((await line(cart)).quantity).toBe(2);
    await later(1);
    const again = await post(anna, 'items/', body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await line(cart)).quantity).toBe(4);
    // And a different body is no longer refused: the old request is forgotten.
    await later(24 * 3600);
    const other = await post(anna, 'items/', { ...body, quantity: 1 }, key);
    expect(other.status).toBe(201);
  });

  it('purges expired keys of any user when a new key is recorded, in batches', async () => {
    // Everything so far expires: the first new key purges it.
    await later(24 * 3600);
    for (let i = 0; i < PURGE_BATCH + 5; i++) {
      const answer = await post(bruno, 'shopping-lists/', { name: `Old ${i}` }, `old-${i}`);
      expect(answer.status).toBe(201);
    }
    expect(await keyRows()).toBe(PURGE_BATCH + 5);
    await later(24 * 3600);
    const fresh = await post(bruno, 'shopping-lists/', { name: 'Fresh' }, randomUUID());
    expect(fresh.status).toBe(201);
    // The new key's transaction deleted one batch: the rest and the new key remain.
    expect(await keyRows()).toBe(5 + 1);
    await post(anna, 'shopping-lists/', { name: 'Fresher' }, randomUUID());
    expect(await keyRows()).toBe(2);
  });
});
