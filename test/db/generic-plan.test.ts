import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, storeGln } from '../../bench/seed.js';
import { readCartFilter } from '../../src/carts/filter.js';
import { pageStatement } from '../../src/carts/queries.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { Params, statement } from '../../src/db/statement.js';
import type { AuthUser } from '../../src/http/auth.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import { createCart } from '../helpers/fixtures.js';

/**
 * The hot pages of carts run with the plan made once per connection (issue 19): with
 * PostgreSQL's own choice a page between dates was planned anew at every request (its plan
 * without values is estimated dearer than one with them), which cost half its database time.
 * One connection, so that what the service prepared is visible to the test's statements.
 */
if (!onPostgres) {
  console.log('Generic plan tests skipped: they need a PostgreSQL server (TEST_DATABASE_URL).');
}

const PLANS = statement(`select name, generic_plans::int as generic, custom_plans::int as custom,
    statement from pg_prepared_statements where statement like $1`);
const MODE = statement(`select current_setting('plan_cache_mode') as mode`);

describe.runIf(onPostgres)('the hot pages of carts (PostgreSQL, direct)', () => {
  let ctx: TestContext;
  let database: Database;
  let drop: () => Promise<void>;
  let staff: Session;

  beforeAll(async () => {
    const scratch = await createPostgresDatabase();
    drop = scratch.drop;
    database = await openDatabase({ url: scratch.url, poolSize: 1 });
    ctx = await startTestApp({ database });
    staff = await ctx.loginAs('carla', 'staff');
    const anna = await ctx.login('anna');
    for (let i = 0; i < 3; i++) {
      await createCart(ctx, anna, { organization: 'ORG-1001', customer_order_number: `PO-${i}` });
    }
  });
  afterAll(async () => {
    await ctx?.close();
    await drop?.();
  });

  const plans = async (marker: string) =>
    database.run<{ name: string; generic: number; custom: number }>(PLANS, [marker]);

  it('plans a page between dates once and answers the same carts as the first time', async () => {
    const path =
      '/api/v1/carts/?created_after=2000-01-01T00:00:00Z&created_before=2100-01-01T00:00:00Z';
    const first = await ctx.request('GET', path, { token: staff.token });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    for (let i = 0; i < 7; i++) {
      const again = await ctx.request('GET', path, { token: staff.token });
      expect(again.body).toEqual(first.body);
    }
    // The page between dates is the one statement reading both cart_hours and row_to_json.
    const [page, ...others] = (await plans('%cart_hours%')).filter((p) => p.name.startsWith('s_'));
    expect(others).toEqual([]);
    // Left to itself PostgreSQL makes 5 custom plans first, then keeps re-planning this one.
    expect(page).toMatchObject({ generic: 8, custom: 0 });
  });

  it('plans the first page over all carts once too', async () => {
    for (let i = 0; i < 6; i++) {
      const answer = await ctx.request('GET', '/api/v1/carts/', { token: staff.token });
      expect(answer.body.count).toBe(3);
    }
    const pages = (await plans('%row_to_json%')).filter((p) => p.custom > 0);
    expect(pages).toEqual([]);
  });

  it('leaves the connection planning as before, after a read and after a failed one', async () => {
    await ctx.request('GET', '/api/v1/carts/', { token: staff.token });
    expect(await database.run(MODE, [])).toEqual([{ mode: 'auto' }]);
    const failing = statement('select 1 / ($1::int - $1::int) as never', { genericPlan: true });
    await expect(database.run(failing, [1])).rejects.toThrow(/division by zero/);
    expect(await database.run(MODE, [])).toEqual([{ mode: 'auto' }]);
    const answer = await ctx.request('GET', '/api/v1/carts/', { token: staff.token });
    expect(answer.status).toBe(200);
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

describe.runIf(onPostgres)("a store's page of carts (PostgreSQL)", () => {
  it("reads the store's newest carts from its own index, not every store's by date", async () => {
    // 20,000 carts of 50 stores over 2 years, analysed: with (store_id, created) alone the
    // planner chose to scan all carts by date and filter by store (at 1M carts too).
    const { url, drop } = await createPostgresDatabase();
    const client = new pg.Client({ connectionString: url });
    try {
      await seed(url, { scale: 20_000, stores: 50, years: 2 }, () => {});
      await client.connect();
      await client.query('set max_parallel_workers_per_gather = 0');
      await client.query('set plan_cache_mode = force_generic_plan');
      const p = new Params();
      const staff = { id: 1, isStaff: true, isAdmin: false } as AuthUser;
      const filter = readCartFilter(staff, { gln: storeGln(7) }, 0);
      const page = pageStatement(filter, undefined, p, 20, 0);
      expect(page.genericPlan).toBe(true);
      await client.query(`prepare store_page as ${page.text}`);
      expect(p.values).toEqual([storeGln(7), storeGln(7)]);
      const { rows } = await client.query(
        `explain (format json) execute store_page('${storeGln(7)}', '${storeGln(7)}')`,
      );
      const carts = nodes(rows[0]['QUERY PLAN'][0].Plan).filter(
        (n) => n['Relation Name'] === 'carts' && n['Index Name'] !== 'carts_pkey',
      );
      expect(carts).toHaveLength(1);
      expect(carts[0]).toMatchObject({
        'Node Type': 'Index Only Scan',
        'Index Name': 'carts_store_created_id_idx',
        'Index Cond': expect.stringContaining('store_id ='),
      });
    } finally {
      await client.end();
      await drop();
    }
  });
});
