import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder, openDatabase } from '../../src/db/client.js';
import { builtStatement } from '../../src/db/statement.js';
import { startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import { createCart, postItem } from '../helpers/fixtures.js';
import { type PgBouncer, pgbouncerInstalled, startPgBouncer } from '../helpers/pgbouncer.js';
import { freePort, SERVICE_MAIN, spawnWatched, startServiceProcess } from '../helpers/process.js';

/**
 * The service through Debian's PgBouncer 1.18 in transaction mode, started from
 * deploy/pgbouncer/pgbouncer.ini: its fault bounds hold, no named statement breaks, a wrong
 * setting stops the start with its cause, and concurrent migrations leave no lock behind.
 */
const runs = onPostgres && pgbouncerInstalled;
if (!onPostgres) console.log('PgBouncer tests skipped: they need TEST_DATABASE_URL.');
else if (!pgbouncerInstalled) {
  console.log(
    'PgBouncer tests skipped: pgbouncer is not installed (apt-get install -y pgbouncer).',
  );
}

const codes = (error: unknown): string[] => {
  const found: string[] = [];
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') found.push(code);
  }
  return found;
};

/** The rows of a drizzle `execute` on node-postgres. */
const rowsOf = async (result: Promise<unknown>) =>
  ((await result) as { rows: Record<string, unknown>[] }).rows;

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(runs)('fault bounds through PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let database: Database;
  let direct: pg.Client;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase());
    direct = new pg.Client({ connectionString: url });
    await direct.connect();
    // The server's own default zone is not UTC: the service must not depend on it.
    const name = new URL(url).pathname.slice(1);
    await direct.query(`alter database ${name} set timezone = 'America/New_York'`);
    bouncer = await startPgBouncer(url, 2);
    database = await openDatabase({
      url: bouncer.urlFor(url),
      pooler: 'transaction',
      poolSize: 4,
      statementTimeoutMs: 500,
    });
  });
  afterAll(async () => {
    await database?.close();
    await bouncer?.stop();
    await direct?.end();
    await drop?.();
  });

  it('a session through the pooler has none of the settings; every statement of ours has them', async () => {
    const raw = new pg.Client({ connectionString: bouncer.urlFor(url) });
    await raw.connect();
    const { rows: session } = await raw.query(
      `select current_setting('statement_timeout') as timeout, current_setting('TimeZone') as zone`,
    );
    await raw.end();
    expect(session[0]).toEqual({ timeout: '0', zone: 'America/New_York' });

    const read = await rowsOf(
      database.db.execute(
        sql`select current_setting('statement_timeout') as timeout,
          current_setting('idle_in_transaction_session_timeout') as idle,
          current_setting('TimeZone') as zone, '2026-03-01 09:15:02.5Z'::timestamptz::text as at`,
      ),
    );
    expect(read[0]).toEqual({
      timeout: '500ms',
      idle: '500ms',
      zone: 'UTC',
      at: '2026-03-01 09:15:02.5+00',
    });
    const [inTransaction] = await database.transaction((run) =>
      run(builtStatement(`select current_setting('statement_timeout') as timeout`), []),
    );
    expect(inTransaction).toEqual({ timeout: '500ms' });
  });

  it('cancels a single read that runs past statement_timeout (the server does, not the client)', async () => {
    const started = Date.now();
    const error = await database.db.execute(sql`select pg_sleep(5)`).catch((e) => e);
    expect(codes(error)).toContain('57014');
    // Before the client's own bound (statement timeout + 1 s) would drop the connection.
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('cancels a statement of a transaction that runs past statement_timeout', async () => {
    const error = await database
      .transaction((run) => run(builtStatement('select pg_sleep(5)'), []))
      .catch((e) => e);
    expect(codes(error)).toContain('57014');
  });

  it('ends a transaction left idle past the bound, freeing its server connection', async () => {
    let pid = 0;
    let ended = false;
    const error = await database
      .transaction(async (run) => {
        const [row] = await run<{ pid: number }>(
          builtStatement('select pg_backend_pid() as pid'),
          [],
        );
        pid = row.pid;
        // Idle in the transaction until the server ends it (or the test's deadline).
        await until(async () => {
          const { rowCount } = await direct.query('select 1 from pg_stat_activity where pid = $1', [
            pid,
          ]);
          return rowCount === 0;
        }, 5000);
        ended = true;
        await run(builtStatement('select 1'), []);
      })
      .catch((e) => e);
    expect(pid).toBeGreaterThan(0);
    expect(ended).toBe(true);
    expect(error).toBeInstanceOf(Error);
    // The pool goes on through the pooler's other server connections.
    expect(await rowsOf(database.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
  });
});

describe.runIf(runs)(
  'requests through PgBouncer with fewer server connections than the pool',
  () => {
    let bouncer: PgBouncer;
    let ctx: TestContext;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      let url: string;
      ({ url, drop } = await createPostgresDatabase());
      bouncer = await startPgBouncer(url, 2);
      const database = await openDatabase({
        url: bouncer.urlFor(url),
        pooler: 'transaction',
        poolSize: 8,
      });
      ctx = await startTestApp({ database });
    });
    afterAll(async () => {
      await ctx?.close();
      await bouncer?.stop();
      await drop?.();
    });

    it('answers a burst of adds and reads without a 500 (no named statement on a switched connection)', async () => {
      const anna = await ctx.login('anna');
      const carts = [await createCart(ctx, anna), await createCart(ctx, anna)];
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          i % 3 === 2
            ? ctx.request('GET', `/api/v1/carts/${carts[i % 2]}/`, { token: anna.token })
            : postItem(ctx, anna, carts[i % 2], `P-${i % 5}`, 1),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
      const checkout = await ctx.request('PATCH', `/api/v1/carts/${carts[0]}/checkout/`, {
        token: anna.token,
      });
      expect(checkout.status, checkout.text).toBe(200);
      const list = await ctx.request('GET', '/api/v1/carts/?checkout=true', { token: anna.token });
      expect(list.status).toBe(200);
      expect(list.body.results.map((c: { id: number }) => c.id)).toEqual([carts[0]]);
    });
  },
);

/** The service's start command to its end (bounded): exit code and output. */
async function runService(env: NodeJS.ProcessEnv, ms = 15_000) {
  const { child, output, exited } = spawnWatched(process.execPath, [SERVICE_MAIN], {
    ...process.env,
    LOG_LEVEL: 'warn',
    PORT: String(await freePort()),
    ...env,
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const [code, signal] = await exited;
  clearTimeout(timer);
  return { code, signal, output: output() };
}

describe.runIf(runs)('a start the database refuses for a setting', () => {
  let bouncer: PgBouncer;
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase());
    bouncer = await startPgBouncer(url);
  });
  afterAll(async () => {
    await bouncer?.stop();
    await drop?.();
  });

  it('exits non-zero at once, naming the cause, instead of retrying', async () => {
    // Through the pooler without DATABASE_POOLER=transaction: startup parameters refused (08P01).
    const options = await runService({ DATABASE_URL: bouncer.urlFor(url) });
    expect(options.signal).toBeNull();
    expect(options.code).toBe(1);
    expect(options.output).toContain('unsupported startup parameter');
    expect(options.output).toContain('DATABASE_POOLER=transaction');
    expect(options.output).not.toContain('migrations will be retried');

    const target = new URL(url);
    target.pathname = '/ordering_no_such_database';
    const unknown = await runService({ DATABASE_URL: target.toString() });
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/the database does not exist \(SQLSTATE 3D000/);

    const wrong = new URL(bouncer.urlFor(url));
    wrong.password = 'not-the-password';
    const login = await runService({
      DATABASE_URL: wrong.toString(),
      DATABASE_POOLER: 'transaction',
    });
    expect(login.code).toBe(1);
    expect(login.output).toContain('login refused');
    expect(login.output).not.toContain('not-the-password');
  }, 60_000);

  it('starts through the pooler with DATABASE_POOLER=transaction', async () => {
    const service = await startServiceProcess(
      {
        ...process.env,
        LOG_LEVEL: 'warn',
        DATABASE_URL: bouncer.urlFor(url),
        DATABASE_POOLER: 'transaction',
      },
      await freePort(),
      '/readyz',
    );
    try {
      const login = await fetch(`${service.url}/api/v1/auth/jwt/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'anna', password: 'anna-pass-2026' }),
      });
      expect(login.status).toBe(200);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 60_000);
});

describe.runIf(runs)('migrations of many instances at once through PgBouncer', () => {
  it('apply once, leave no advisory lock, and a later admin migrate returns at once', async () => {
    const { url, drop } = await createPostgresDatabase({ empty: true });
    const bouncer = await startPgBouncer(url, 3);
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    try {
      const instances = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          openDatabase(
            i < 5
              ? { url: bouncer.urlFor(url), pooler: 'transaction', poolSize: 1 }
              : { url, poolSize: 1 },
          ),
        ),
      );
      await Promise.all(instances.map((instance) => instance.migrate()));
      await Promise.all(instances.map((instance) => instance.close()));
      const files = readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length;
      const { rows } = await direct.query(
        'select count(*)::int as n, count(distinct hash)::int as hashes from drizzle.__drizzle_migrations',
      );
      expect(rows[0]).toEqual({ n: files, hashes: files });
      // PgBouncer keeps its server connections open: a session lock would still be held.
      const locks = await direct.query(
        `select count(*)::int as n from pg_locks
          where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );
      expect(locks.rows[0].n).toBe(0);
      const started = Date.now();
      const admin = spawn(process.execPath, ['bin/ordering-admin.js', 'migrate'], {
        env: { ...process.env, DATABASE_URL: url },
        stdio: 'ignore',
      });
      const timer = setTimeout(() => admin.kill('SIGKILL'), 15_000);
      const [code] = await once(admin, 'exit');
      clearTimeout(timer);
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await direct.end();
      await bouncer.stop();
      await drop();
    }
  }, 60_000);
});
