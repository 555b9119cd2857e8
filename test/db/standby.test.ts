import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { type Answer, startTestApp, type TestContext } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';
import { createCart } from '../helpers/fixtures.js';
import { viaPgBouncer } from '../helpers/pgbouncer.js';
import { freePort, postgresBin } from '../helpers/process.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

/**
 * A real hot standby (issue 30): a throwaway primary and a streaming standby of it
 * (pg_basebackup -R). The service's endpoint (a proxy standing for HAProxy or a managed
 * service's DNS name) is moved to the standby before it is promoted, as a stale endpoint or a
 * balancer that switched early does: writes are refused by the server itself ("cannot
 * execute pg_current_xact_id() during recovery"), then the standby is promoted and the
 * service writes again, without a restart.
 */
const run = promisify(execFile);

const bin = postgresBin();
const asRoot = process.getuid?.() === 0;
// Not again in the PgBouncer pass: it opens its own connections, never through PgBouncer.
const enabled = onPostgres && bin !== undefined && !viaPgBouncer;
if (!enabled) {
  console.log(
    'Hot standby test skipped: it runs in the PostgreSQL pass (not through PgBouncer), with initdb installed.',
  );
}

/** The PostgreSQL tools refuse to run as root: as root they run as the postgres user. */
function pg_(name: string, ...args: string[]) {
  const path = join(bin!, name);
  return asRoot ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args);
}

const POOL_SIZE = 3;
let dir: string | undefined;
let ctx: TestContext | undefined;
let proxy: TcpProxy | undefined;
afterAll(async () => {
  await ctx?.close();
  await proxy?.close();
  if (dir) {
    for (const data of ['primary', 'standby']) {
      await pg_('pg_ctl', '-D', join(dir, data), '-m', 'immediate', 'stop').catch(() => {});
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

function expectUnavailable(answer: Answer): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.body).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

it.runIf(enabled)(
  'a standby refuses writes with 503 and /readyz 503, leaking nothing; once promoted it serves at once',
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'ordering-standby-'));
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
      chownSync(dir, uid, gid);
    }
    const primaryData = join(dir, 'primary');
    const standbyData = join(dir, 'standby');
    const [primaryPort, standbyPort] = [await freePort(), await freePort()];
    const options = (port: number) =>
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await pg_('initdb', '-D', primaryData, '-A', 'trust', '-U', 'postgres', '--no-sync');
    await pg_(
      'pg_ctl',
      '-D',
      primaryData,
      '-o',
      options(primaryPort),
      '-l',
      `${primaryData}.log`,
      '-w',
      'start',
    );
    const urlOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: primaryPort });
    const database = await openDatabase({
      url: proxy.urlFor(urlOf(primaryPort)),
      poolSize: POOL_SIZE,
      poolTimeoutMs: 1000,
      // Long: a leaked transaction is not ended by idle_in_transaction_session_timeout here.
      statementTimeoutMs: 60_000,
    });
    await database.migrate();
    ctx = await startTestApp({ database });
    const anna = await ctx.login('anna');
    const cart = await createCart(ctx, anna);
    const add = (part: string, key?: string) =>
      ctx!.request('POST', '/api/v1/items/', {
        token: anna.token,
        body: { cart, part_number: part, quantity: 1 },
        headers: key ? { 'idempotency-key': key } : undefined,
      });
    expect((await add('BEFORE')).status).toBe(201);

    // The standby, from a base backup taken after that write (it is in the standby's data).
    await pg_(
      'pg_basebackup',
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyData,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    );
    await pg_(
      'pg_ctl',
      '-D',
      standbyData,
      '-o',
      options(standbyPort),
      '-l',
      `${standbyData}.log`,
      '-w',
      'start',
    );
    const standby = new pg.Client({ connectionString: urlOf(standbyPort) });
    await standby.connect();
    try {
      expect((await standby.query('select pg_is_in_recovery() as r')).rows[0].r).toBe(true);

      // The endpoint moves to the standby before it is promoted; the balancer ends the
      // sessions of the old primary (HAProxy's shutdown-sessions).
      proxy.retarget({ host: '127.0.0.1', port: standbyPort });
      proxy.cutAll();
      // Reads are served by the standby; writes refused by it, more often than the pool has
      // connections, on both kinds of transaction.
      const read = await ctx.request('GET', `/api/v1/carts/${cart}/`, { token: anna.token });
      expect(read.status).toBe(200);
      for (let i = 0; i < 3 * POOL_SIZE; i++) {
        expectUnavailable(await add(`DURING-${i}`, i % 2 ? `during-${i}` : undefined));
      }
      const ready = await ctx.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable', detail: 'database read-only' });
      expect((await ctx.request('GET', '/healthz')).status).toBe(200);

      // The failover ends: the old primary stops, the standby is promoted.
      await pg_('pg_ctl', '-D', primaryData, '-m', 'fast', '-w', 'stop');
      await pg_('pg_ctl', '-D', standbyData, '-w', 'promote');
      const promoted = Date.now();
      const after = await add('AFTER', 'after');
      expect(after.status, after.text).toBe(201);
      expect((await add('AFTER-2')).status).toBe(201);
      expect(Date.now() - promoted).toBeLessThan(1000);
      expect((await ctx.request('GET', '/readyz')).status).toBe(200);
      const { rows } = await standby.query(
        `select count(*)::int as n from pg_stat_activity
          where state = 'idle in transaction (aborted)'`,
      );
      expect(rows[0].n).toBe(0);
      const items = await standby.query(
        'select part_number from items where cart_id = $1 order by id',
        [cart],
      );
      expect(items.rows.map((r) => r.part_number)).toEqual(['BEFORE', 'AFTER', 'AFTER-2']);
    } finally {
      await standby.end();
    }
  },
  120_000,
);
