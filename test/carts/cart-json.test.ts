import fastJson from 'fast-json-stringify';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartListedSchema } from '../../src/carts/schemas.js';
import { Paged } from '../../src/http/pagination.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import {
  addItem,
  cartWith,
  checkedOutCart,
  checkout,
  createCart,
  createStore,
  loginStaff,
} from '../helpers/fixtures.js';

/**
 * A cart in list form is written by PostgreSQL (src/carts/queries.ts), not by the schema's
 * serializer: its text must be exactly what that serializer writes for the same cart — the
 * same properties in the same order, the same escapes — and valid against the schema, for
 * every kind of cart (in a store or the warehouse, empty, with lines, checked out, flagged,
 * in a control) and for strings that need escaping.
 */
const cartJson = fastJson(CartListedSchema);
const pageJson = fastJson(Paged(CartListedSchema));

/** Text that JSON escapes in every way it can: quotes, backslash, controls, non-ASCII. */
const AWKWARD = 'a "quoted" \\ back\tslash\nnew line é ✓ 😀 </script> \u2028';

let ctx: TestContext;
let anna: Session;
let staff: Session;
const carts: number[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  anna = await ctx.login('anna');
  staff = await loginStaff(ctx);
  const admin = await ctx.loginAs('carla', 'admin');
  const gln = '4000000000024';
  const storeId = await createStore(ctx, gln);
  // In a store, awkward strings, several lines (one merged).
  const awkward = await cartWith(
    ctx,
    anna,
    { store: gln, customer_order_number: AWKWARD, order_mark: AWKWARD, reference: AWKWARD },
    [
      [`P-${AWKWARD}`, 3],
      ['P-2', 1],
    ],
  );
  await addItem(ctx, anna, awkward, 'P-2', 4);
  carts.push(awkward);
  // The warehouse (no store), no reference, no lines.
  carts.push(await createCart(ctx, anna, { store: null, reference: null }));
  // Checked out.
  carts.push(await checkedOutCart(ctx, anna, { store: gln }));
  // Flagged by upstream's 503.
  const flagged = await cartWith(ctx, anna, { store: gln });
  ctx.sim.inject('orders', { type: 'unavailable' });
  expect((await checkout(ctx, anna, flagged)).status).toBe(503);
  carts.push(flagged);
  // In a control (it takes the user's carts in the store).
  const control = await ctx.request('POST', '/api/v1/controls/', {
    token: admin.token,
    body: { user: anna.userId, store: storeId, status: 'pending' },
  });
  expect(control.status, control.text).toBe(201);
  expect((control.body.carts as number[]).length).toBeGreaterThan(0);
});
afterAll(() => ctx?.close());

describe('carts in list form, written by the database', () => {
  it('GET carts/{id}/: the serializer’s text, valid against the schema', async () => {
    for (const id of carts) {
      const answer = await ctx.request('GET', `/api/v1/carts/${id}/`, { token: anna.token });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Value.Check(CartListedSchema, answer.body), answer.text).toBe(true);
      expect(answer.text).toBe(cartJson(answer.body));
    }
  });

  it('GET carts/ as the customer and as staff: the envelope and every cart as serialized', async () => {
    for (const session of [anna, staff]) {
      for (const path of ['/api/v1/carts/', '/api/v1/carts/?page_size=2&page=2']) {
        const answer = await ctx.request('GET', path, { token: session.token });
        expect(answer.status, answer.text).toBe(200);
        expect(Value.Check(Paged(CartListedSchema), answer.body), answer.text).toBe(true);
        expect(answer.text).toBe(pageJson(answer.body));
      }
    }
    const mine = await ctx.request('GET', '/api/v1/carts/?page_size=100', { token: anna.token });
    const listed = mine.body.results as {
      id: number;
      items: { part_number: string; quantity: number }[];
      controls: number[];
      checkout: unknown;
      store: unknown;
      checkout_availability_error: boolean;
      customer_order_number: string;
    }[];
    // Every kind of cart was in it.
    const byId = new Map(listed.map((c) => [c.id, c]));
    const [awkward, warehouse, checkedOut, flagged] = carts.map((id) => byId.get(id)!);
    expect(awkward!.customer_order_number).toBe(AWKWARD);
    // Part numbers are trimmed (U+2028 is white space).
    expect(awkward!.items.map((i) => [i.part_number, i.quantity])).toEqual([
      [`P-${AWKWARD}`.trim(), 3],
      ['P-2', 5],
    ]);
    expect(awkward!.controls.length).toBe(1);
    expect(warehouse!.store).toBeNull();
    expect(warehouse!.items).toEqual([]);
    expect(checkedOut!.checkout).not.toBeNull();
    expect(flagged!.checkout_availability_error).toBe(true);
  });

  it('an empty page past the first is 404; an empty list is an empty envelope', async () => {
    const bruno = await ctx.login('bruno');
    const empty = await ctx.request('GET', '/api/v1/carts/', { token: bruno.token });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.text).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
    const past = await ctx.request('GET', '/api/v1/carts/?page=2', { token: bruno.token });
    expect(past.status).toBe(404);
  });
});
