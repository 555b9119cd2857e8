import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Session, TestContext } from '../helpers/app.js';

// The files of a worker share their modules (vitest.config.ts, `isolate: false`), and other
// files name statements of their own: this one counts src/'s alone, so it loads the app's
// modules afresh, with a registry of named statements of its own.
vi.resetModules();
const { MAX_NAMED, namedStatementCount } = await import('../../src/db/statement.js');
const { startTestApp } = await import('../helpers/app.js');
const { createCart, createStore, loginStaff } = await import('../helpers/fixtures.js');

/**
 * Statement texts are bounded (issue 17, finding 7): the cart list, stats and time series
 * build a text per combination of filters, and none of them is kept or named; the named
 * (prepared) statements are the fixed ones the code holds, whatever clients send.
 */

/**
 * The fixed statements of src/ (`statement(…)` at module level). A new one changes this.
 * 35 of them are the hot stats and series of src/carts/stats.ts (5 shapes of filters: stats,
 * and series by day, week and month of carts and of lines); issue 29 added the checkout's
 * mark of an unconfirmed order (src/carts/checkout.ts); issue 33 the read of a checkout record
 * with the attempt that stored it (src/carts/checkout.ts, recordCheckout), and a customer's
 * stats and series of their own carts in the same 35 shapes (migration 0025).
 */
const FIXED_STATEMENTS = 88;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** Distinct combinations of the documented filters (3 × 3 × 3 × 2 × 2 × 2 × 2 = 432). */
function* filterCombinations(gln: string, user: number): Generator<string> {
  for (const active of ['', 'true', 'false'])
    for (const checkout of ['', 'true', 'false'])
      for (const error of ['', 'true', 'false'])
        for (const warehouse of ['', 'true'])
          for (const eachUser of ['', 'true'])
            for (const store of ['', gln])
              for (const byUser of ['', String(user)]) {
                const query = new URLSearchParams();
                if (active) query.set('active', active);
                if (checkout) query.set('checkout', checkout);
                if (error) query.set('checkout_availability_error', error);
                if (warehouse) query.set('exclude_warehouse', warehouse);
                if (eachUser) query.set('each_user', eachUser);
                if (store) query.set('gln', store);
                // created_after is a parameter: each value the same text.
                query.set(
                  'created_after',
                  `2026-01-01T00:00:${String(byUser.length % 60).padStart(2, '0')}Z`,
                );
                if (byUser) query.set('user', byUser);
                yield query.toString();
              }
}

describe('statement texts under a flood of distinct filters', () => {
  let ctx: TestContext;
  let staff: Session;
  let anna: Session;
  beforeAll(async () => {
    ctx = await startTestApp();
    staff = await loginStaff(ctx);
    anna = await ctx.login('anna');
    await createCart(ctx, anna);
  });
  afterAll(() => ctx?.close());

  it('names only the fixed statements, and the heap stays flat', async () => {
    const gln = '4000000000017';
    await createStore(ctx, gln);
    await createCart(ctx, anna, { store: gln });
    // Every route once: all fixed statements are made (at module load) and prepared.
    expect(namedStatementCount()).toBe(FIXED_STATEMENTS);
    expect(FIXED_STATEMENTS).toBeLessThan(MAX_NAMED / 2);

    const combos = [...filterCombinations(gln, anna.userId)];
    const paths = (query: string, i: number) => [
      `/api/v1/carts/?${query}&ordering=${i % 2 ? '-' : ''}created`,
      `/api/v1/carts/stats/?${query}`,
      `/api/v1/carts/time-series/?${query}&interval=${'MWDH'[i % 4]}&aggregate=${i % 2 ? 'items' : 'carts'}`,
    ];
    const flood = async (from: number, to: number) => {
      for (let i = from; i < to; i += 8) {
        const batch = combos.slice(i, Math.min(i + 8, to)).flatMap((q, j) => paths(q, i + j));
        const answers = await Promise.all(
          batch.map((path) => ctx.request('GET', path, { token: staff.token })),
        );
        expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
      }
    };
    // A first part warms up (JIT, caches of the framework), the rest is measured.
    await flood(0, 200);
    const before = heapUsed();
    await flood(200, combos.length);
    const grown = heapUsed() - before;

    expect(namedStatementCount()).toBe(FIXED_STATEMENTS);
    // 232 combinations × 3 routes: kept, their texts would be ~700 entries (a few MB).
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    // On a server, each connection has prepared at most the fixed statements.
    const pool = (ctx.database.db as unknown as { $client: unknown }).$client as {
      _clients?: { connection: { parsedStatements: Record<string, string> } }[];
    };
    for (const client of pool._clients ?? []) {
      expect(Object.keys(client.connection.parsedStatements).length).toBeLessThanOrEqual(
        FIXED_STATEMENTS,
      );
    }
  }, 120_000);
});
