import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { type Answer, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import { createCart } from '../helpers/fixtures.js';
import {
  type PgBouncer,
  pgbouncerInstalled,
  startPgBouncer,
  viaPgBouncer,
} from '../helpers/pgbouncer.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

/**
 * The service's side of a database failover (issue 30), on a PostgreSQL server (and through
 * PgBouncer with TEST_PGBOUNCER=1): what a standby or a demoted primary answers, a refused
 * transaction start, and a read whose backend is terminated under it. The fleet test with
 * Patroni kills a real primary; these make each answer happen on demand.
 */
if (!onPostgres) {
  console.log(
    'Database failover tests skipped: they need a PostgreSQL server (TEST_DATABASE_URL).',
  );
}

const POOL_SIZE = 3;
const BOUNDS = { poolTimeoutMs: 1000, statementTimeoutMs: 2000 };
/**
 * A leaked connection's transaction is ended by the server after
 * idle_in_transaction_session_timeout (the statement timeout, on a direct connection; behind
 * PgBouncer the refused batch's set_config is undone and nothing ends it): long here, so a
 * leak shows for the whole test.
 */
const LONG_IDLE = { ...BOUNDS, statementTimeoutMs: 60_000 };
const throughPgBouncer = viaPgBouncer && pgbouncerInstalled;

interface Harness {
  ctx: TestContext;
  /** A direct connection to the test's database (never through PgBouncer). */
  direct: pg.Client;
  name: string;
  /** The test's database on the server (direct). */
  url: string;
  anna: Session;
  pool: pg.Pool;
  drop: () => Promise<void>;
}

/** `prepare` runs on the fresh database before the service opens its pool. */
async function startHarness(
  prepare?: (direct: pg.Client, name: string) => Promise<void>,
  bounds = BOUNDS,
) {
  const { url, drop } = await createPostgresDatabase();
  const name = new URL(url).pathname.slice(1);
  const direct = new pg.Client({ connectionString: url });
  await direct.connect();
  await prepare?.(direct, name);
  let bouncer: PgBouncer | undefined;
  let database: Database;
  if (throughPgBouncer) {
    bouncer = await startPgBouncer(url, POOL_SIZE);
    database = await openDatabase({
      url: bouncer.urlFor(url),
      pooler: 'transaction',
      poolSize: POOL_SIZE,
      ...bounds,
    });
  } else {
    database = await openDatabase({ url, poolSize: POOL_SIZE, ...bounds });
  }
  const ctx = await startTestApp({ database });
  const anna = await ctx.login('anna');
  // biome-ignore lint/suspicious/noExplicitAny: the pool behind drizzle
  const pool = (ctx.database.db as any).$client as pg.Pool;
  const h: Harness = {
    ctx,
    direct,
    name,
    url,
    anna,
    pool,
    drop: async () => {
      await ctx.close();
      await bouncer?.stop();
      await direct.end();
      await drop();
    },
  };
  return h;
}

function expectUnavailable(answer: Answer): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.body).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** Until `check` holds, asked every 20 ms; fails past `ms`. */
async function until(check: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const add = (h: Harness, cart: number, part: string, key?: string) =>
  h.ctx.request('POST', '/api/v1/items/', {
    token: h.anna.token,
    body: { cart, part_number: part, quantity: 1 },
    headers: key ? { 'idempotency-key': key } : undefined,
  });

const abortedBackends = async (h: Harness) =>
  (
    await h.direct.query(
      `select count(*)::int as n from pg_stat_activity
        where datname = $1 and state = 'idle in transaction (aborted)'`,
      [h.name],
    )
  ).rows[0].n as number;

describe.runIf(onPostgres)('a transaction start refused on live connections (a standby)', () => {
  let h: Harness;
  beforeAll(async () => {
    // What a standby answers the opening batch, on demand: a pg_current_xact_id() found first
    // on the search path, which refuses while the switch says so, as a server in recovery does.
    h = await startHarness(async (direct, name) => {
      await direct.query(`
        create table failover_switch (refuse boolean not null);
        insert into failover_switch values (false);
        create function public.pg_current_xact_id() returns xid8 language plpgsql as $$
        begin
          if (select refuse from public.failover_switch) then
            raise exception 'cannot execute pg_current_xact_id() during recovery'
              using errcode = '25006';
          end if;
          return pg_catalog.pg_current_xact_id();
        end $$;
        alter database ${name} set search_path = public, pg_catalog`);
    }, LONG_IDLE);
  });
  afterAll(() => h?.drop());

  it('answers 503 with Retry-After, leaks no connection, and writes at once when writable again', async () => {
    const cart = await createCart(h.ctx, h.anna);
    await h.direct.query('update failover_switch set refuse = true');
    // More refusals than the pool has connections, on both kinds of transaction: drizzle's
    // (with an Idempotency-Key) and the pool's own (a single verified write).
    for (let i = 0; i < 3 * POOL_SIZE; i++) {
      expectUnavailable(await add(h, cart, `R-${i}`, i % 2 === 0 ? `refused-${i}` : undefined));
    }
    await h.direct.query('update failover_switch set refuse = false');
    const started = Date.now();
    const keyed = await add(h, cart, 'AFTER-KEYED', 'after-keyed');
    expect(keyed.status, keyed.text).toBe(201);
    expect((await add(h, cart, 'AFTER')).status).toBe(201);
    // At once: no wait for a pool connection (its bound is 1 s).
    expect(Date.now() - started).toBeLessThan(BOUNDS.poolTimeoutMs);
    // Every refused start's connection was closed, none kept `idle in transaction (aborted)`.
    await until(async () => (await abortedBackends(h)) === 0, 'no aborted transaction left');
    const { rows } = await h.direct.query(
      'select part_number from items where cart_id = $1 order by id',
      [cart],
    );
    expect(rows.map((r) => r.part_number)).toEqual(['AFTER-KEYED', 'AFTER']);
  }, 30_000);
});

// Through PgBouncer the read-only sessions are PgBouncer's server connections, which it
// keeps (a real demotion restarts the server and ends them): the service's side is the
// direct case.
describe.runIf(onPostgres && !throughPgBouncer)('connections to a read-only database', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.drop());

  it('are discarded: /readyz 503 while read-only, writes 503 then back without a restart', async () => {
    const cart = await createCart(h.ctx, h.anna);
    // The pool's connections now reach a server that cannot write, as a demoted primary's do.
    await h.direct.query(`alter database ${h.name} set default_transaction_read_only = on`);
    await h.direct.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [h.name],
    );
    await until(async () => h.pool.totalCount === 0, 'the pool dropped its terminated connections');
    // Reads are served; the pool fills with read-only connections.
    const reads = await Promise.all(
      Array.from({ length: 2 * POOL_SIZE }, () =>
        h.ctx.request('GET', `/api/v1/carts/${cart}/`, { token: h.anna.token }),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(Array(2 * POOL_SIZE).fill(200));
    expect(h.pool.totalCount).toBe(POOL_SIZE);
    const ready = await h.ctx.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable', detail: 'database read-only' });
    expectUnavailable(await add(h, cart, 'RO-1'));
    expectUnavailable(await add(h, cart, 'RO-2', 'ro-2'));

    // The endpoint is writable again: connections opened from now on can write, the old ones
    // stay read-only for their whole life. Each write that meets one discards it.
    await h.direct.query(`alter database ${h.name} reset default_transaction_read_only`);
    const statuses: number[] = [];
    for (let i = 0; i < 2 * POOL_SIZE + 2; i++) {
      const answer = await add(h, cart, `W-${i}`, i % 2 ? `w-${i}` : undefined);
      if (answer.status !== 201) expectUnavailable(answer);
      statuses.push(answer.status);
    }
    const firstWrite = statuses.indexOf(201);
    expect(firstWrite, statuses.join(' ')).toBeGreaterThanOrEqual(0);
    expect(firstWrite).toBeLessThanOrEqual(POOL_SIZE);
    expect(statuses.slice(firstWrite)).toEqual(Array(statuses.length - firstWrite).fill(201));
    expect((await h.ctx.request('GET', '/readyz')).status).toBe(200);
    const { rows } = await h.direct.query(
      'select count(*)::int as n from items where cart_id = $1',
      [cart],
    );
    expect(rows[0].n).toBe(statuses.length - firstWrite);
  }, 30_000);
});

describe.runIf(onPostgres)('a backend terminated under a request (pg_terminate_backend)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.drop());

  /** Holds an exclusive lock on carts from another session until the returned function runs. */
  async function lockCarts(): Promise<() => Promise<void>> {
    const holder = new pg.Client({ connectionString: h.url });
    await holder.connect();
    await holder.query('begin; lock table carts in access exclusive mode');
    let held = true;
    return async () => {
      if (!held) return;
      held = false;
      await holder.query('rollback');
      await holder.end();
    };
  }

  /** The backend of the service's statement that waits on the lock (`what` in its text). */
  async function terminateWaiter(what: RegExp): Promise<string> {
    let waiting: { pid: number; query: string } | undefined;
    await until(async () => {
      const { rows } = await h.direct.query(
        `select pid, query from pg_stat_activity
          where datname = $1 and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        [h.name],
      );
      waiting = rows.find((r) => what.test(r.query));
      return waiting !== undefined;
    }, 'a statement of the service waits on the lock');
    await h.direct.query('select pg_terminate_backend($1)', [waiting?.pid]);
    return waiting?.query ?? '';
  }

  it('retries a read cut before its answer once on a fresh connection: 200', async () => {
    const cart = await createCart(h.ctx, h.anna);
    const unlock = await lockCarts();
    try {
      const read = h.ctx.request('GET', `/api/v1/carts/${cart}/`, { token: h.anna.token });
      const query = await terminateWaiter(/^\s*select/i);
      expect(query).not.toMatch(/^\s*(begin|insert|update|delete|with)/i);
      await unlock();
      const answer = await read;
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.id).toBe(cart);
    } finally {
      await unlock();
    }
  }, 30_000);

  it('never repeats a write whose connection was cut: 503, stored once at most', async () => {
    const cart = await createCart(h.ctx, h.anna);
    const unlock = await lockCarts();
    let answer: Answer;
    try {
      const write = add(h, cart, 'CUT');
      await terminateWaiter(/./);
      await unlock();
      answer = await write;
    } finally {
      await unlock();
    }
    expectUnavailable(answer);
    const { rows } = await h.direct.query(
      'select count(*)::int as n from items where cart_id = $1',
      [cart],
    );
    expect(rows[0].n).toBe(0);
  }, 30_000);
});

// Starts a PgBouncer of its own: the same test in the PgBouncer pass, so not run again there.
describe.runIf(onPostgres && pgbouncerInstalled && !viaPgBouncer)(
  'PgBouncer (as shipped) while the primary is away',
  () => {
    let h: Harness;
    let proxy: TcpProxy;
    let bouncer: PgBouncer;
    let dropDatabase: () => Promise<void>;
    beforeAll(async () => {
      // The service -> PgBouncer (deploy/pgbouncer/pgbouncer.ini) -> a proxy standing for
      // HAProxy, which takes the primary away (new connections closed at once, as HAProxy does
      // with no server up) and gives it back.
      const { url, drop } = await createPostgresDatabase();
      dropDatabase = drop;
      const target = new URL(url);
      proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
      bouncer = await startPgBouncer(proxy.urlFor(url), POOL_SIZE);
      const database = await openDatabase({
        url: bouncer.urlFor(url),
        pooler: 'transaction',
        poolSize: POOL_SIZE,
        ...BOUNDS,
      });
      const ctx = await startTestApp({ database });
      const direct = new pg.Client({ connectionString: url });
      await direct.connect();
      // biome-ignore lint/suspicious/noExplicitAny: the pool behind drizzle
      const pool = (ctx.database.db as any).$client as pg.Pool;
      h = {
        ctx,
        direct,
        url,
        name: target.pathname.slice(1),
        anna: await ctx.login('anna'),
        pool,
        drop: async () => {
          proxy.restore();
          await ctx.close();
          await bouncer.stop();
          await proxy.close();
          await direct.end();
        },
      };
    });
    afterAll(async () => {
      await h?.drop();
      await dropDatabase?.();
    });

    it('answers 503, never 500, and writes again within about server_login_retry (1 s) of its return', async () => {
      const cart = await createCart(h.ctx, h.anna);
      proxy.refuse();
      // PgBouncer's own refusals: "pgbouncer cannot connect to server", then for
      // server_login_retry "server login has been failing, try again later".
      for (let i = 0; i < 6; i++) expectUnavailable(await add(h, cart, `DOWN-${i}`));
      expect(bouncer.log()).toMatch(/server login has been failing|closing because/i);
      proxy.restore();
      const back = Date.now();
      let answer: Answer;
      let refused = 0;
      for (;;) {
        answer = await add(h, cart, 'BACK');
        if (answer.status === 201 || Date.now() - back > 20_000) break;
        expectUnavailable(answer);
        refused += 1;
        // Pacing (not ordering): a client retrying every 50 ms.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const window = Date.now() - back;
      console.log(
        `PgBouncer: writes back ${window} ms after the server returned (${refused} × 503)`,
      );
      expect(answer.status).toBe(201);
      // Debian's server_login_retry (15 s) kept it refusing for up to 15 s.
      expect(window).toBeLessThan(2500);
    }, 40_000);
  },
);
