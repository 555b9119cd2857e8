import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT } from '../../erp-simulator/data.js';
import { startSimulator } from '../../erp-simulator/server.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { ADD_ITEM } from '../../src/items/logic.js';
import { startService } from '../../src/service.js';
import { type Answer, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import { createCart } from '../helpers/fixtures.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../helpers/wait.js';

/**
 * The service against a PostgreSQL that fails under it: connections cut at every kind of
 * moment, a database that is down, one that stops answering, a client that leaves, and
 * migrations interrupted. A proxy between the service and the server makes the faults.
 */
if (!onPostgres) {
  console.log('Database fault tests skipped: they need a PostgreSQL server (TEST_DATABASE_URL).');
}

const ORG = 'ORG-1001';
const BOUNDS = { poolTimeoutMs: 500, statementTimeoutMs: 500 };

interface Harness {
  ctx: TestContext;
  proxy: TcpProxy;
  /** A direct connection (no proxy) to check what is stored. */
  direct: pg.Client;
  drop: () => Promise<void>;
}

async function startHarness(poolSize: number, bounds = BOUNDS): Promise<Harness> {
  const { url, drop } = await createPostgresDatabase();
  const target = new URL(url);
  const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  const database: Database = await openDatabase({ url: proxy.urlFor(url), poolSize, ...bounds });
  const ctx = await startTestApp({ database });
  const direct = new pg.Client({ connectionString: url });
  await direct.connect();
  return { ctx, proxy, direct, drop };
}

async function stopHarness(h: Harness | undefined): Promise<void> {
  if (!h) return;
  h.proxy.restore();
  await h.ctx.close();
  await h.proxy.close();
  await h.direct.end();
  await h.drop();
}

const newCart = (ctx: TestContext, session: Session) =>
  createCart(ctx, session, { organization: ORG, customer_order_number: 'PO' });

function expectUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe.runIf(onPostgres)('connections cut under a load of item adds', () => {
  let h: Harness;
  let anna: Session;
  beforeAll(async () => {
    h = await startHarness(4);
    anna = await h.ctx.login('anna');
  });
  afterAll(() => stopHarness(h));

  it('answers 201 or 503, never 500; every 201 is stored once and every 503 stored nothing', async () => {
    const { ctx, proxy } = h;
    const carts = [await newCart(ctx, anna), await newCart(ctx, anna), await newCart(ctx, anna)];
    const accepted = new Map<number, number>(carts.map((c) => [c, 0]));
    const statuses = new Map<number, number>();
    let sent = 0;
    const add = async (i: number) => {
      const cart = carts[i % carts.length];
      const quantity = (i % 7) + 1;
      const answer = await ctx.request('POST', '/api/v1/items/', {
        token: anna.token,
        body: { cart, part_number: `PN-${i % 5}`, quantity },
      });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 201) accepted.set(cart, accepted.get(cart)! + quantity);
      else expectUnavailable(answer);
      return answer;
    };
    const round = (size: number) => Promise.all(Array.from({ length: size }, () => add(sent++)));

    // Every moment of its transaction: BEGIN (which learns the transaction id) and the add (one
    // prepared statement: lock, upsert, counters; its name is on the wire at every execution),
    // sent in one round trip, before it reaches the server and after it ran uncommitted; the
    // commit before it reaches the server, and after it committed but before the answer came back.
    const moments: [string, 'before' | 'after'][] = [
      ['pg_current_xact_id', 'before'],
      [String(ADD_ITEM.name), 'before'],
      [String(ADD_ITEM.name), 'after'],
      ['commit', 'before'],
      ['commit', 'after'],
      ['commit', 'after'],
    ];
    for (const [text, when] of moments) {
      const before = proxy.cuts;
      proxy.cutOn(text, when, 2);
      await round(12);
      expect(proxy.cuts, `cut at ${text} (${when})`).toBeGreaterThan(before);
    }
    // And every connection at once, idle or busy, after each 25th answer.
    for (let wave = 0; wave < 6; wave++) {
      const pending = Array.from({ length: 25 }, () => add(sent++));
      let answered = 0;
      await Promise.all(
        pending.map((p) =>
          p.then(() => {
            answered += 1;
            if (answered === 12) proxy.cutAll();
          }),
        ),
      );
    }

    expect([...statuses.keys()].sort()).toEqual([201, 503]);
    expect(proxy.cuts).toBeGreaterThan(10);
    for (const cart of carts) {
      const { rows } = await h.direct.query(
        `select c.total_quantity, c.items_count, coalesce(sum(i.quantity), 0)::int as lines,
                count(i.id)::int as line_count
           from carts c left join items i on i.cart_id = c.id where c.id = $1 group by c.id`,
        [cart],
      );
      expect(rows[0].lines).toBe(accepted.get(cart));
      expect(rows[0].total_quantity).toBe(accepted.get(cart));
      expect(rows[0].items_count).toBe(rows[0].line_count);
    }
    // Still serving, on new connections.
    expect((await ctx.request('GET', '/api/v1/carts/', { token: anna.token })).status).toBe(200);
  }, 60_000);
});

describe.runIf(onPostgres)('a database that is down, frozen, or left by the client', () => {
  let h: Harness;
  let anna: Session;
  beforeAll(async () => {
    h = await startHarness(2);
    anna = await h.ctx.login('anna');
  });
  afterAll(() => stopHarness(h));

  it('answers 503 database_unavailable while down; /readyz 503, /healthz 200; serves again within 1 s', async () => {
    const { ctx, proxy } = h;
    const cart = await newCart(ctx, anna);
    proxy.refuse();
    expectUnavailable(await ctx.request('GET', '/api/v1/carts/', { token: anna.token }));
    expectUnavailable(
      await ctx.request('POST', '/api/v1/items/', {
        token: anna.token,
        body: { cart, part_number: 'P', quantity: 1 },
      }),
    );
    expect((await ctx.request('GET', '/readyz')).status).toBe(503);
    expect((await ctx.request('GET', '/healthz')).status).toBe(200);

    proxy.restore();
    const back = Date.now();
    let answer: Answer;
    do answer = await ctx.request('GET', '/api/v1/carts/', { token: anna.token });
    while (answer.status !== 200 && Date.now() - back < 5000);
    const recovery = Date.now() - back;
    expect(answer.status).toBe(200);
    expect(recovery).toBeLessThan(1000);
    expect((await ctx.request('GET', '/readyz')).status).toBe(200);
    const { rows } = await h.direct.query(
      'select count(*)::int as n from items where cart_id = $1',
      [cart],
    );
    expect(rows[0].n).toBe(0);
  });

  it('bounds every request while the database does not answer: 503, none held longer', async () => {
    const { ctx, proxy } = h;
    const cart = await newCart(ctx, anna);
    proxy.freeze();
    try {
      // Two hold the pool's connections (their statements get no answer); the rest queue.
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const answer = await ctx.request('POST', '/api/v1/items/', {
            token: anna.token,
            body: { cart, part_number: `F-${i}`, quantity: 1 },
          });
          return { answer, ms: Date.now() - started };
        }),
      );
      for (const { answer, ms } of answers) {
        expectUnavailable(answer);
        // Pool wait (0.5 s) + a statement's answer bound (0.5 s + 1 s), with slack.
        expect(ms).toBeLessThan(3500);
      }
    } finally {
      proxy.restore();
    }
    const { rows } = await h.direct.query(
      'select count(*)::int as n from items where cart_id = $1',
      [cart],
    );
    expect(rows[0].n).toBe(0);
    expect((await ctx.request('GET', '/api/v1/carts/', { token: anna.token })).status).toBe(200);
  }, 20_000);
});

describe.runIf(onPostgres)('a database unreachable for a moment (a switchover)', () => {
  let h: Harness;
  let anna: Session;
  beforeAll(async () => {
    // A read's own worst case: 2 s for a connection, then 2 s for the statement.
    h = await startHarness(2, { poolTimeoutMs: 2000, statementTimeoutMs: 2000 });
    anna = await h.ctx.login('anna');
  });
  afterAll(() => stopHarness(h));

  it('holds a read while the database is unreachable and answers it once it is back: 200, not 503', async () => {
    const { ctx, proxy } = h;
    const cart = await newCart(ctx, anna);
    proxy.refuse();
    const refusedBefore = proxy.refused;
    const read = ctx.request('GET', `/api/v1/carts/${cart}/`, { token: anna.token });
    // The read was refused twice (its first try and a retry), then the database is back.
    await until(() => proxy.refused >= refusedBefore + 2, 'the read was refused twice');
    proxy.restore();
    const answer = await read;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.id).toBe(cart);
  }, 20_000);

  it('still answers a write 503 at once: its fate would be unknown', async () => {
    const { ctx, proxy } = h;
    const cart = await newCart(ctx, anna);
    proxy.refuse();
    try {
      const started = Date.now();
      const answer = await ctx.request('POST', '/api/v1/items/', {
        token: anna.token,
        body: { cart, part_number: 'W', quantity: 1 },
      });
      expectUnavailable(answer);
      // The request's own user lookup (a read) waits its 4 s at most; the write adds nothing.
      expect(Date.now() - started).toBeLessThan(6000);
    } finally {
      proxy.restore();
    }
  }, 20_000);
});

describe.runIf(onPostgres)('a client that goes away while its request waits for the pool', () => {
  let h: Harness;
  let anna: Session;
  beforeAll(async () => {
    h = await startHarness(1, { poolTimeoutMs: 15_000, statementTimeoutMs: 15_000 });
    anna = await h.ctx.login('anna');
  });
  afterAll(() => stopHarness(h));

  it('does not take a connection or run its queries', async () => {
    const { ctx, proxy } = h;
    const cart = await newCart(ctx, anna);
    // biome-ignore lint/suspicious/noExplicitAny: the pool behind drizzle
    const pool = (ctx.database.db as any).$client as pg.Pool;
    proxy.freeze();
    let left = 0;
    ctx.app.server.on('request', (_request, response) =>
      response.once('close', () => {
        if (!response.writableFinished) left += 1;
      }),
    );
    // One request holds the only connection; five adds wait for it, then their clients leave.
    const holder = ctx.request('GET', '/api/v1/carts/', { token: anna.token });
    const controllers = Array.from({ length: 5 }, () => new AbortController());
    const gone = controllers.map((controller, i) =>
      fetch(`${ctx.url}/api/v1/items/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${anna.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ cart, part_number: `GONE-${i}`, quantity: 1 }),
        signal: controller.signal,
      }).catch(() => 'aborted'),
    );
    while (pool.waitingCount < 5) await new Promise((resolve) => setImmediate(resolve));
    for (const controller of controllers) controller.abort();
    expect(await Promise.all(gone)).toEqual(Array(5).fill('aborted'));
    // The server has seen each client leave before the database comes back.
    while (left < 5) await new Promise((resolve) => setImmediate(resolve));
    proxy.restore();
    expect((await holder).status).toBe(200);
    // Queued after the five: when it is answered, they have had their turn.
    const after = await ctx.request('POST', '/api/v1/items/', {
      token: anna.token,
      body: { cart, part_number: 'AFTER', quantity: 1 },
    });
    expect(after.status).toBe(201);
    const { rows } = await h.direct.query(
      'select part_number from items where cart_id = $1 order by id',
      [cart],
    );
    expect(rows.map((r) => r.part_number)).toEqual(['AFTER']);
  }, 30_000);
});

describe.runIf(onPostgres)('migrations while connections are cut', () => {
  it('waits on the lock of another instance, survives cuts, and migrates once', async () => {
    const { url, drop } = await createPostgresDatabase({ empty: true });
    const target = new URL(url);
    const proxy = await TcpProxy.start({
      host: target.hostname,
      port: Number(target.port || 5432),
    });
    const sim = await startSimulator();
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    // Another instance is migrating: it holds the lock.
    await other.query('select pg_advisory_lock(727274001)');
    const config = loadConfig({
      DATABASE_URL: proxy.urlFor(url),
      PORT: '0',
      JWT_SECRET: 'test-secret-test-secret-test-secret',
      UPSTREAM_URL: sim.url,
      UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
      UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
      LOG_LEVEL: 'silent',
      DATABASE_POOL_TIMEOUT_MS: '1000',
    });
    const starting = startService(config);
    try {
      const waitingOnLock = async () => {
        const { rows } = await other.query(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
        );
        return rows[0].n > 0;
      };
      while (!(await waitingOnLock())) await new Promise((resolve) => setTimeout(resolve, 20));
      proxy.cutAll(); // cut while waiting on the lock
      while (!(await waitingOnLock())) await new Promise((resolve) => setTimeout(resolve, 20));
      // Cut in the middle of the migration, then let it through.
      proxy.cutOn('CREATE TABLE', 'before', 1);
      await other.query('select pg_advisory_unlock(727274001)');
      const service = await starting;
      try {
        expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
        const { rows } = await other.query(
          'select count(*)::int as n from drizzle.__drizzle_migrations',
        );
        expect(rows[0].n).toBeGreaterThan(0);
        expect(proxy.cuts).toBeGreaterThanOrEqual(2);
      } finally {
        await service.stop();
      }
    } finally {
      await other.end();
      await proxy.close();
      await sim.close();
      await drop();
    }
  }, 60_000);
});
