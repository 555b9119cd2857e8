import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cartAsText } from '../../scripts/pooled-checkout-sql.js';
import { shifted } from '../../scripts/pooled-stats-sql.js';
import { RECORD_CHECKOUT } from '../../src/carts/checkout.js';
import { readCartFilter } from '../../src/carts/filter.js';
import { CART_WITH_CALLER, GET_CART, pageStatement } from '../../src/carts/queries.js';
import {
  POOLED_OWN_STATS,
  POOLED_STATS,
  seriesStatement,
  statsStatement,
} from '../../src/carts/stats.js';
import { openDatabase } from '../../src/db/client.js';
import { sessionDefaultsSql } from '../../src/db/pool.js';
import { Params, type Statement } from '../../src/db/statement.js';
import type { AuthUser } from '../../src/http/auth.js';
import { CALLER_JSON, fromCallerJson, USER_BY_ID } from '../../src/http/auth.js';
import { ADD_ITEM, ADD_ITEM_AS } from '../../src/items/logic.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import {
  cartWith,
  checkedOutCart,
  createCart,
  createStore,
  loginStaff,
} from '../helpers/fixtures.js';

/**
 * Behind a transaction pooler the hot reads run as PL/pgSQL functions (migration 0019,
 * decision 0016), whose plans the pooler's server connections keep. A function must answer
 * exactly what its statement answers (the statement is what runs on a direct connection and
 * on PGlite), and behind a pooler the function must be what is sent.
 */
const AWKWARD = 'a "quoted" \\ back\tslash\nnew line é ✓ 😀 </script> \u2028';

let ctx: TestContext;
let anna: Session;
let staff: Session;
const carts: number[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  anna = await ctx.login('anna');
  staff = await loginStaff(ctx);
  const gln = '4000000000024';
  await createStore(ctx, gln);
  carts.push(
    await cartWith(ctx, anna, { store: gln, customer_order_number: AWKWARD, reference: AWKWARD }, [
      [`P-${AWKWARD}`, 3],
      ['P-2', 1],
    ]),
  );
  carts.push(await createCart(ctx, anna, { store: null, reference: null }));
  carts.push(await checkedOutCart(ctx, anna, { store: gln }));
}, 60_000);

afterAll(() => ctx?.close());

/** Staff's filters with a function each behind a pooler (the last one reuses "after"). */
const [PAST, FUTURE] = ['2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z'];
const STAFF_SHAPES = [
  {},
  { gln: '4000000000024' },
  { created_after: PAST, created_before: FUTURE },
  { created_after: PAST },
  { created_before: FUTURE },
  { created_after: FUTURE },
];

/** A shape's stats and series statements for `user`, with their values. */
function shapeStatements(user: AuthUser, query: (typeof STAFF_SHAPES)[number]) {
  const filter = readCartFilter(user, query, Date.now() * 1000);
  let p = new Params();
  const statements: [Statement, unknown[]][] = [[statsStatement(filter, p), p.values]];
  for (const interval of ['D', 'W', 'M'] as const) {
    for (const aggregate of ['carts', 'items'] as const) {
      p = new Params();
      statements.push([seriesStatement(filter, { ...query, interval, aggregate }, p), p.values]);
    }
  }
  return statements;
}

/**
 * A call's answer with its caller, as the service reads it: the call's one text (migration
 * 0028) read back into the caller's and the read's columns; undefined when the user is gone.
 */
function answerOf(rows: Record<string, unknown>[]): Record<string, unknown> | undefined {
  expect(rows.length).toBe(1);
  const [row] = rows as [Record<string, unknown>];
  expect(Object.keys(row)[0]).toMatch(new RegExp(`^${CALLER_JSON}`));
  return fromCallerJson(row);
}

/** The statement's function call, run as a plain statement (whatever the connection). */
const asFunction = (statement: Statement): Statement => {
  expect(statement.pooled).toBeDefined();
  return { text: statement.pooled as string };
};

describe('the functions behind a pooler', () => {
  it('answer a cart exactly as its statement does, for its owner, another user and staff', async () => {
    const run = ctx.database.run;
    let found = 0;
    for (const cart of [...carts, 999_999]) {
      for (const values of [
        [cart, anna.userId, false],
        [cart, staff.userId, false],
        [cart, staff.userId, true],
      ]) {
        const direct = await run<{ doc: string }>(GET_CART, values);
        expect(await run<{ doc: string }>(asFunction(GET_CART), values)).toEqual(direct);
        found += direct.length;
      }
    }
    // Owner and staff see each of the three carts; the other user none; the missing one nobody.
    expect(found).toBe(6);
  });

  it("answer a customer's first page exactly as its statement does", async () => {
    const run = ctx.database.run;
    const p = new Params();
    const customer = { id: anna.userId, isStaff: false, isAdmin: false } as AuthUser;
    const page = pageStatement(readCartFilter(customer, {}, 0), undefined, p, 20, 0);
    for (const id of [anna.userId, staff.userId]) {
      const direct = await run<{ total: number; results: string }>(page, [id, id]);
      expect(await run(asFunction(page), [id, id])).toEqual(direct);
      expect(direct[0].total > 0).toBe(id === anna.userId);
    }
  });

  it("answer staff's first pages exactly as their statements do", async () => {
    const run = ctx.database.run;
    const user = { id: staff.userId, isStaff: true, isAdmin: false } as AuthUser;
    const now = Date.now() * 1000;
    for (const query of STAFF_SHAPES) {
      const p = new Params();
      const page = pageStatement(readCartFilter(user, query, now), undefined, p, 20, 0);
      const direct = await run<{ total: number; results: string }>(page, p.values);
      expect(await run(asFunction(page), p.values), JSON.stringify(query)).toEqual(direct);
    }
  });

  it("answer staff's stats and series exactly as their statements do (migration 0021)", async () => {
    const run = ctx.database.run;
    const user = { id: staff.userId, isStaff: true, isAdmin: false } as AuthUser;
    const called = new Set<string>();
    let nonEmpty = 0;
    for (const query of STAFF_SHAPES) {
      for (const [statement, values] of shapeStatements(user, query)) {
        const direct = await run<Record<string, unknown>>(statement, values);
        const label = `${JSON.stringify(query)} ${statement.pooled}`;
        expect(await run(asFunction(statement), values), label).toEqual(direct);
        called.add(statement.pooled as string);
        if (Object.values(direct[0] ?? {}).some((v) => v !== null && v !== 0)) nonEmpty += 1;
      }
    }
    // Every function called (the last shape reuses the "after" ones), most with figures.
    expect(called.size).toBe(POOLED_STATS.length);
    expect(nonEmpty).toBeGreaterThan(28);
  });

  it('with the caller (migrations 0022, 0025, 0028): answer the caller as auth_user and the read the caller may see', async () => {
    const run = ctx.database.run;
    const callerOf = async (id: number) =>
      (await run<Record<string, unknown>>(asFunction(USER_BY_ID), [id]))[0];
    // The cart: with the staff flag the caller's row holds; no row when the user is gone.
    for (const cart of [...carts, 999_999]) {
      for (const user of [anna.userId, staff.userId]) {
        const [both] = await run<Record<string, unknown>>({ text: CART_WITH_CALLER }, [user, cart]);
        const { doc, ...caller } = both;
        expect(caller).toEqual(await callerOf(user));
        const [alone] = await run<{ doc: string }>(GET_CART, [cart, user, user === staff.userId]);
        expect(doc, `${cart} ${user}`).toBe(alone?.doc ?? null);
      }
      expect(await run({ text: CART_WITH_CALLER }, [999_999, cart])).toEqual([]);
    }
    // The stats and series (migration 0025): staff's figures for staff, a customer's own for
    // a customer; no row for a user who is gone.
    const user = { id: staff.userId, isStaff: true, isAdmin: false } as AuthUser;
    const customer = { id: anna.userId, isStaff: false, isAdmin: false } as AuthUser;
    const called = new Set<string>();
    let ownFigures = 0;
    for (const query of STAFF_SHAPES) {
      const own = shapeStatements(customer, query);
      for (const [i, [statement, values]] of shapeStatements(user, query).entries()) {
        const call = statement.pooledWithCaller as string;
        expect(call, statement.pooled).toBeDefined();
        called.add(call);
        const [ownStatement, ownValues] = own[i];
        // A customer's values are their id, then staff's (POOLED_OWN_STATS).
        expect(ownValues).toEqual([anna.userId, ...values]);
        const [read] = await run<Record<string, unknown>>(statement, values);
        const [ownRead] = await run<Record<string, unknown>>(ownStatement, ownValues);
        for (const id of [staff.userId, anna.userId]) {
          const both = answerOf(
            await run<Record<string, unknown>>({ text: call }, [id, ...values]),
          );
          const caller = await callerOf(id);
          const rest = Object.fromEntries(
            Object.entries(both ?? {}).filter(([k]) => !(k in caller)),
          );
          expect(both).toMatchObject(caller);
          expect(rest, `${call} ${id}`).toEqual(id === staff.userId ? read : ownRead);
        }
        if (JSON.stringify(ownRead) !== JSON.stringify(read)) ownFigures += 1;
        expect(answerOf(await run({ text: call }, [999_999, ...values]))).toBeUndefined();
      }
    }
    expect(called.size).toBe(POOLED_STATS.length);
    // One text each (migration 0028): a series' after the caller's JSON object, as it is.
    const [series] = await run<Record<string, string>>(
      { text: 'select series_all_d_carts_json($1) as answer' },
      [anna.userId],
    );
    const [head, tail] = series.answer.split('\n');
    expect(JSON.parse(head)).toEqual(await callerOf(anna.userId));
    expect(tail).toMatch(/^\d+:\d+(,\d+:\d+)*$/);
    // Anna's figures are not everyone's (staff's cart and others are in the data).
    expect(ownFigures).toBeGreaterThan(20);
  });

  it("answer a customer's stats and series exactly as their statements do (migration 0025)", async () => {
    const run = ctx.database.run;
    const called = new Set<string>();
    let nonEmpty = 0;
    for (const id of [anna.userId, staff.userId]) {
      const customer = { id, isStaff: false, isAdmin: false } as AuthUser;
      for (const query of STAFF_SHAPES) {
        for (const [statement, values] of shapeStatements(customer, query)) {
          const direct = await run<Record<string, unknown>>(statement, values);
          const label = `${id} ${JSON.stringify(query)} ${statement.pooled}`;
          expect(await run(asFunction(statement), values), label).toEqual(direct);
          // Fixed, and so prepared once per connection on a direct one.
          expect(statement.name, label).toBeDefined();
          expect(statement.pooledWithCaller, label).toBeUndefined();
          called.add(statement.pooled as string);
          if (Object.values(direct[0] ?? {}).some((v) => v !== null && v !== 0)) nonEmpty += 1;
        }
      }
    }
    expect(called.size).toBe(POOLED_OWN_STATS.length);
    expect(nonEmpty).toBeGreaterThan(28);
  });

  it("claim a cart with its caller (migration 0023): as checkout_claim for the token's user; nothing for another", async () => {
    const run = ctx.database.run;
    const [caller] = await run<AuthUser & Record<string, unknown>>(asFunction(USER_BY_ID), [
      anna.userId,
    ]);
    const lines: [string, number][] = [
      ['P-1', 2],
      ['P-2', 1],
    ];
    const cart = () => cartWith(ctx, anna, { reference: 'R' }, lines);
    const now = new Date().toISOString();
    const stale = '2000-01-01T00:00:00Z';
    const claimAs = (user: number, username: string, generation: number, id: number) =>
      run<Record<string, unknown>>(
        { text: 'select * from checkout_claim_as($1, $2, $3, $4, $5, $6, $7::uuid)' },
        [user, username, generation, id, now, stale, randomUUID()],
      );
    const claim = (id: number, user = anna.userId) =>
      run<Record<string, unknown>>(
        { text: 'select * from checkout_claim($1, $2, $3, $4, $5::uuid)' },
        [id, user, now, stale, randomUUID()],
      );
    const claimOf = (row: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(row).filter(([k]) => !(k in caller)));
    const claimed = async (id: number) =>
      (
        await run<{ c: string | null }>(
          { text: 'select checkout_claim c from carts where id = $1' },
          [id],
        )
      )[0].c;

    // The token's user: the caller's row and the same claim (but the cart's creation).
    const [a, b] = [await cart(), await cart()];
    const [both] = await claimAs(anna.userId, caller.username, caller.sessionGeneration, a);
    const [alone] = await claim(b);
    expect(both).toMatchObject(caller);
    const { cart_reference, cart_created: _, ...rest } = claimOf(both);
    const { reference, cart_created: __, ...restAlone } = alone;
    expect({ ...rest, cart_reference }).toEqual({ ...restAlone, cart_reference: reference });
    expect(rest.claimed).toBe(true);
    expect(await claimed(a)).not.toBeNull();

    // A token the user's row no longer matches (renamed by an erasure, sessions ended): the
    // caller's row, no claim, the cart untouched (its own claim goes through after).
    for (const [username, generation] of [
      ['erased-1', caller.sessionGeneration],
      [caller.username, caller.sessionGeneration + 1],
    ] as const) {
      const c = await cart();
      const [refused] = await claimAs(anna.userId, username, generation, c);
      expect(refused).toMatchObject(caller);
      expect(Object.values(claimOf(refused)).every((v) => v === null)).toBe(true);
      expect(await claimed(c)).toBeNull();
      expect((await claim(c))[0].claimed).toBe(true);
    }

    // Not theirs, or no such cart: the caller's row and no claim, as checkout_claim finds none.
    const theirs = await cart();
    const [staffRow] = await run<AuthUser & Record<string, unknown>>(asFunction(USER_BY_ID), [
      staff.userId,
    ]);
    for (const id of [theirs, 999_999]) {
      const [row] = await claimAs(staff.userId, staffRow.username, staffRow.sessionGeneration, id);
      expect(row).toMatchObject(staffRow);
      expect(Object.values(claimOf(row)).every((v) => v === null)).toBe(true);
      expect(await claim(id, staff.userId)).toEqual([]);
    }
    expect(await claimed(theirs)).toBeNull();
    // A user who is gone: no row.
    expect(await claimAs(999_999, 'nobody', 0, theirs)).toEqual([]);
  });

  it("add a line with its caller (migration 0027): as ADD_ITEM for the token's user; nothing for another", async () => {
    const run = ctx.database.run;
    const [caller] = await run<AuthUser & Record<string, unknown>>(asFunction(USER_BY_ID), [
      anna.userId,
    ]);
    const now = '2026-03-01T09:15:02.123456Z';
    const addAs = (
      user: number,
      username: string,
      generation: number,
      cart: number,
      part: string,
      quantity: number,
    ) =>
      run<Record<string, unknown>>({ text: ADD_ITEM_AS }, [
        user,
        username,
        generation,
        cart,
        part,
        quantity,
        now,
      ]);
    /** The add's columns of a combined row, named as ADD_ITEM names them, ids left out. */
    const addOf = (row: Record<string, unknown>) => {
      const { item_id, cart_id, ...rest } = Object.fromEntries(
        Object.entries(row).filter(([k]) => !(k in caller)),
      );
      return {
        ...rest,
        id: item_id === null ? null : 'id',
        cart_id: cart_id === null ? null : 'cart',
      };
    };
    const strip = ({ id, cart_id, ...rest }: Record<string, unknown>) => ({
      ...rest,
      id: id === null ? null : 'id',
      cart_id: cart_id === null ? null : 'cart',
    });
    const lines = async (cart: number) =>
      run<Record<string, unknown>>(
        { text: 'select part_number, quantity from items where cart_id = $1 order by part_number' },
        [cart],
      );
    const [a, b] = [await createCart(ctx, anna, {}), await createCart(ctx, anna, {})];
    const closed = await checkedOutCart(ctx, anna, {});
    const { username, sessionGeneration } = caller;
    // The token's user: the caller's row and what ADD_ITEM answers (new, merged, over the
    // line's limit, a closed cart).
    const cases: [number | 'a', string, number][] = [
      ['a', 'P-1', 3],
      ['a', 'P-1', 4],
      ['a', 'P-1', 999_999],
      [closed, 'P-2', 1],
    ];
    for (const [cart, part, quantity] of cases) {
      const [both] = await addAs(
        anna.userId,
        username,
        sessionGeneration,
        cart === 'a' ? b : cart,
        part,
        quantity,
      );
      const direct = await run<Record<string, unknown>>(ADD_ITEM, [
        cart === 'a' ? a : cart,
        anna.userId,
        part,
        quantity,
        now,
      ]);
      expect(both).toMatchObject(caller);
      expect(addOf(both)).toEqual(strip(direct[0]));
    }
    expect(await lines(b)).toEqual(await lines(a));
    // Not theirs, or no such cart: the caller's row and the add's columns null, as ADD_ITEM
    // answers nothing.
    for (const cart of [b, 999_999]) {
      const [staffRow] = await run<AuthUser & Record<string, unknown>>(asFunction(USER_BY_ID), [
        staff.userId,
      ]);
      const [row] = await addAs(
        staff.userId,
        staffRow.username,
        staffRow.sessionGeneration,
        cart,
        'P-3',
        1,
      );
      expect(row).toMatchObject(staffRow);
      expect(Object.values(addOf(row)).every((v) => v === null)).toBe(true);
      expect(await run(ADD_ITEM, [cart, staff.userId, 'P-3', 1, now])).toEqual([]);
    }
    // A token the user's row no longer matches (renamed by an erasure, sessions ended): the
    // caller's row, nothing written.
    const kept = await lines(b);
    for (const [name, generation] of [
      ['erased-1', sessionGeneration],
      [username, sessionGeneration + 1],
    ] as const) {
      const [refused] = await addAs(anna.userId, name, generation, b, 'P-1', 1);
      expect(refused).toMatchObject(caller);
      expect(Object.values(addOf(refused)).every((v) => v === null)).toBe(true);
    }
    expect(await lines(b)).toEqual(kept);
    // A user who is gone: no row.
    expect(await addAs(999_999, 'nobody', 0, b, 'P-1', 1)).toEqual([]);
    // The add is add_item's (0019): the same statement, the caller's columns first.
    const bodies = await run<{ proname: string; prosrc: string }>(
      { text: "select proname, prosrc from pg_proc where proname in ('add_item', 'add_item_as')" },
      [],
    );
    const body = (fn: string) => bodies.find((r) => r.proname === fn)?.prosrc ?? '';
    const add = body('add_item');
    const withCtes = add.slice(
      add.indexOf('RETURN QUERY WITH'),
      add.indexOf('  SELECT cart.checked_out'),
    );
    const select = add.slice(
      add.indexOf('cart.checked_out, cart.checkout_frozen'),
      add.lastIndexOf('END'),
    );
    expect(withCtes.length).toBeGreaterThan(500);
    expect(select.length).toBeGreaterThan(100);
    expect(body('add_item_as')).toContain(withCtes);
    expect(body('add_item_as')).toContain(select);
  });

  it('record a checkout exactly as its statement does: stored once, then the record (migration 0026)', async () => {
    const run = ctx.database.run;
    const [a, b] = [await createCart(ctx, anna, {}), await createCart(ctx, anna, {})];
    const now = '2026-03-01T09:15:02.123456Z';
    const record = (statement: Statement, cart: number, order: string) =>
      run<Record<string, unknown>>(statement, [
        cart,
        now,
        order,
        `N-${order}`,
        false,
        randomUUID(),
      ]);
    const same = (rows: Record<string, unknown>[]) =>
      rows.map(({ id, cart_id, ...rest }) => ({ ...rest, id: typeof id, cart_id: typeof cart_id }));
    const stored = [
      await record(RECORD_CHECKOUT, a, 'O-1'),
      await record(asFunction(RECORD_CHECKOUT), b, 'O-1'),
    ];
    expect(same(stored[1])).toEqual(same(stored[0]));
    expect(stored[0][0]).toMatchObject({ added: true, cart_id: a, created: now, timed_out: false });
    expect(stored[1][0]).toMatchObject({ added: true, cart_id: b });
    // Again, another order: nothing stored, the first record answered.
    const again = [
      await record(RECORD_CHECKOUT, a, 'O-2'),
      await record(asFunction(RECORD_CHECKOUT), b, 'O-2'),
    ];
    expect(same(again[1])).toEqual(same(again[0]));
    expect(again[1][0]).toEqual({ ...stored[1][0], added: false });
    // Both carts closed alike.
    const cartOf = async (id: number) =>
      (
        await run<Record<string, unknown>>(
          {
            text: 'select checked_out, checkout_claim, last_activity::text from carts where id = $1',
          },
          [id],
        )
      )[0];
    expect(await cartOf(b)).toEqual(await cartOf(a));
    expect((await cartOf(b)).checked_out).toBe(true);
  });

  it("has each function's body as its statement's text today", async () => {
    // Changed a text? Write a migration that replaces the function: scripts/pooled-stats-sql.ts
    // (--replace) or scripts/pooled-checkout-sql.ts print them from the texts.
    const record = { fn: 'checkout_record', text: RECORD_CHECKOUT.text };
    const expected: [string, string][] = [
      ...[...POOLED_STATS, ...POOLED_OWN_STATS, record].map(({ fn, text }): [string, string] => [
        fn,
        `RETURN QUERY ${text.trim()};`,
      ]),
      // Inlined (migrations 0026, 0028): the texts, the caller's id first; the customer's own.
      ...POOLED_STATS.map(({ fn, text }): [string, string] => [`${fn}_json`, shifted(text).trim()]),
      ...POOLED_OWN_STATS.map(({ fn, text }): [string, string] => [
        `${fn.replace('_own_', '_')}_json`,
        text.trim(),
      ]),
      ['cart_doc_as', `(${cartAsText()})`],
    ];
    const rows = await ctx.database.run<{ proname: string; prosrc: string }>(
      { text: 'select proname, prosrc from pg_proc where proname = any($1)' },
      [expected.map(([fn]) => fn)],
    );
    const bodies = new Map(rows.map((r) => [r.proname, r.prosrc]));
    expect(bodies.size).toBe(new Set(expected.map(([fn]) => fn)).size);
    for (const [fn, text] of expected) expect(bodies.get(fn), fn).toContain(text);
  });

  it('answer a user exactly as its statement does', async () => {
    const run = ctx.database.run;
    for (const id of [anna.userId, staff.userId, 999_999]) {
      const direct = await run(USER_BY_ID, [id]);
      expect(direct.length).toBe(id === 999_999 ? 0 : 1);
      expect(await run(asFunction(USER_BY_ID), [id])).toEqual(direct);
    }
  });

  it('add a line exactly as its statement does: new, merged, over the limit, closed, not theirs', async () => {
    const run = ctx.database.run;
    const [a, b] = [await createCart(ctx, anna, {}), await createCart(ctx, anna, {})];
    const closed = await checkedOutCart(ctx, anna, {});
    const now = '2026-03-01T09:15:02.123456Z';
    const strip = (rows: Record<string, unknown>[]): Record<string, unknown>[] =>
      rows.map(({ id, ...rest }) => ({ ...rest, id: id === null ? null : 'id' }));
    const cases: [number | 'a', number, string, number][] = [
      ['a', anna.userId, 'P-1', 3], // a new line
      ['a', anna.userId, 'P-1', 4], // merged
      ['a', anna.userId, 'P-1', 999_999], // over the line's limit
      ['a', staff.userId, 'P-1', 1], // not the user's cart
      [closed, anna.userId, 'P-2', 1], // checked out
    ];
    for (const [cart, user, part, quantity] of cases) {
      const direct = await run<Record<string, unknown>>(ADD_ITEM, [
        cart === 'a' ? a : cart,
        user,
        part,
        quantity,
        now,
      ]);
      const called = await run<Record<string, unknown>>(asFunction(ADD_ITEM), [
        cart === 'a' ? b : cart,
        user,
        part,
        quantity,
        now,
      ]);
      const same = strip(called).map((row) => ({
        ...row,
        cart_id: row.cart_id === b ? a : row.cart_id,
      }));
      expect(same).toEqual(strip(direct));
    }
    // The two carts now read the same but for their ids.
    const doc = async (id: number) => {
      const [row] = await run<{ doc: string }>(GET_CART, [id, anna.userId, false]);
      const { id: _, created: __, items, ...rest } = JSON.parse(row.doc);
      return {
        ...rest,
        items: items.map((line: { part_number: string; quantity: number }) => [
          line.part_number,
          line.quantity,
        ]),
      };
    };
    expect(await doc(b)).toEqual(await doc(a));
  });

  it.skipIf(!onPostgres)(
    'are what a pooled connection sends; a direct one sends the statement',
    async () => {
      const { url, drop } = await createPostgresDatabase();
      const sent: string[] = [];
      const realQuery = pg.Client.prototype.query;
      const spied = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const config = args[0] as string | { text?: string };
        sent.push(typeof config === 'string' ? config : (config?.text ?? ''));
        return (realQuery as (...a: unknown[]) => unknown).apply(this, args);
      } as never);
      try {
        for (const pooler of ['transaction', 'none'] as const) {
          const database = await openDatabase({ url, pooler, poolSize: 1 });
          try {
            sent.length = 0;
            await database.run(GET_CART, [carts[0], anna.userId, false]);
            await database.run(USER_BY_ID, [anna.userId]);
            await database.run(ADD_ITEM, [1, 1, 'P-9', 1, '2026-03-01T09:15:02Z']);
            const customer = { id: 1, isStaff: false, isAdmin: false } as AuthUser;
            const page = pageStatement(
              readCartFilter(customer, {}, 0),
              undefined,
              new Params(),
              20,
              0,
            );
            await database.run(page, [1, 1]);
            const calls = sent.filter((text) =>
              /cart_doc\(|auth_user\(|add_item\(|customer_page\(/.test(text),
            );
            expect(calls.length, pooler).toBe(pooler === 'transaction' ? 4 : 0);
            // The write's call still runs in a verified transaction: BEGIN with it, then COMMIT.
            expect(sent.filter((text) => /^\s*commit/i.test(text)).length, pooler).toBe(1);
          } finally {
            await database.close();
          }
        }
      } finally {
        spied.mockRestore();
        await drop();
      }
    },
  );

  it.skipIf(!onPostgres)(
    'skip the per-read settings once the server connections default to them',
    async () => {
      const { url, drop } = await createPostgresDatabase();
      const sent: string[] = [];
      const realQuery = pg.Client.prototype.query;
      const spied = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const config = args[0] as { text?: string; before?: string[] } | string;
        if (typeof config === 'string') sent.push(config);
        else sent.push(...(config?.before ?? []), config?.text ?? '');
        return (realQuery as (...a: unknown[]) => unknown).apply(this, args);
      } as never);
      const read = { text: "select current_setting('statement_timeout') as t" };
      const settingsSent = () => sent.filter((text) => text.includes('set_config')).length;
      try {
        // Defaults not in place: each read sets them for itself.
        let database = await openDatabase({ url, pooler: 'transaction', poolSize: 4 });
        expect(await database.adoptServerDefaults()).toBe(false);
        sent.length = 0;
        expect(await database.run<{ t: string }>(read, [])).toEqual([{ t: '5s' }]);
        expect(settingsSent()).toBe(1);
        await database.close();
        // The operator's step (docs/operations.md "Behind a pooler"), on this database.
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        const name = new URL(url).pathname.slice(1);
        for (const text of sessionDefaultsSql(5000, `DATABASE ${name}`)) await admin.query(text);
        await admin.end();
        database = await openDatabase({ url, pooler: 'transaction', poolSize: 4 });
        try {
          expect(await database.adoptServerDefaults()).toBe(true);
          sent.length = 0;
          expect(await database.run<{ t: string }>(read, [])).toEqual([{ t: '5s' }]);
          expect(settingsSent()).toBe(0);
          // A transaction goes without them too, and still knows its id (a verified commit).
          await database.transaction((run) => run(read, []));
          expect(settingsSent()).toBe(0);
          expect(sent.some((text) => /pg_current_xact_id/.test(text))).toBe(true);
        } finally {
          await database.close();
        }
        // A direct connection never asks.
        const direct = await openDatabase({ url, pooler: 'none', poolSize: 1 });
        expect(await direct.adoptServerDefaults()).toBe(false);
        await direct.close();
      } finally {
        spied.mockRestore();
        await drop();
      }
    },
  );
});
