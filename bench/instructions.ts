/**
 * `npm run bench:instructions`: the database's work per request counted in CPU instructions,
 * the service on a direct connection and through PgBouncer (transaction mode), on the same
 * data and the same requests. CPU time per request moves with what else the machine runs (two
 * direct runs of one build differed by up to 1.37x on the cheapest requests: docs/benchmarks.md);
 * instructions counted by valgrind do not, so a difference of a few per cent is a difference.
 *
 * A PostgreSQL cluster of its own (Debian's binaries, initdb in a temporary folder) is seeded
 * with BENCH_SCALE carts (default 100,000), then restarted under `valgrind --tool=callgrind`,
 * which writes each backend's instruction count when the backend ends. The service starts as
 * production starts it, with a pool of one connection (through PgBouncer: one server
 * connection), and gets each scenario's requests one at a time (bench/scenarios.ts, from a
 * seeded random source: both paths get the same requests). Per scenario: W requests, the
 * backends ended; the same W, ended (count A); the same W and M more, ended (count B). (B - A)
 * / M is a request's instructions, the connection's start and warm-up cancelled out.
 * BENCH_REQUESTS=M (default 20); BENCH_WARM=W (default 10: past the five custom plans
 * PostgreSQL makes for a prepared statement before it may settle on one); BENCH_SCALE;
 * BENCH_ONLY as for `npm run bench`; BENCH_DEBUG=1 prints each backend's count; BENCH_KEEP=1
 * keeps the folder with callgrind's files (for callgrind_annotate). Reads and writes alike;
 * the checkout's carts are distinct throughout. Writes bench/results/instructions.json. Needs
 * valgrind, PostgreSQL's server binaries and pgbouncer (apt-get install -y valgrind pgbouncer).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { DEMO_SERVICE_ACCOUNT } from '../erp-simulator/data.js';
import { buildServer } from '../scripts/build.mjs';
import { seededRandom } from '../src/admin/demo-carts.js';
import { openDatabase } from '../src/db/client.js';
import { sessionDefaultsSql } from '../src/db/pool.js';
import { startPgBouncer } from '../test/helpers/pgbouncer.js';
import { freePort, postgresBin } from '../test/helpers/process.js';
import { JWT_SECRET, writePlan } from './plan.js';
import { type Plan, type Req, scenarios } from './scenarios.js';
import { type Shape, seed } from './seed.js';

const SCALE = Math.floor(Number(process.env.BENCH_SCALE ?? 100_000));
const M = Math.floor(Number(process.env.BENCH_REQUESTS ?? 20));
const W = Math.floor(Number(process.env.BENCH_WARM ?? 10));
const ONLY = process.env.BENCH_ONLY;
const SCENARIOS = [
  'GET carts/{id}/',
  'POST items/',
  'GET carts/ (customer)',
  'GET carts/ (staff)',
  'GET carts/?gln= (staff)',
  'GET carts/?created_after=&created_before= (staff)',
  'carts/stats/ (customer)',
  'carts/stats/ (staff)',
  'carts/stats/?gln= (staff)',
  'carts/stats/?created_after=&created_before= (staff)',
  'carts/time-series/?interval=D (customer)',
  'carts/time-series/?interval=D (staff)',
  'carts/time-series/?interval=M (staff)',
  'PATCH carts/{id}/checkout/',
].filter((name) => !ONLY || ONLY.split('|').some((part) => name.includes(part)));

const children: ChildProcess[] = [];
const asRoot = process.getuid?.() === 0;

/** A PostgreSQL binary run as `postgres` when this runs as root (the server refuses root). */
function pgCommand(binary: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
}

/** PostgreSQL's server binaries, or why not. */
function serverBin(): string {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (apt-get install -y postgresql)');
  return bin;
}

/** A server of the cluster in `dir`, plain or under callgrind; resolves once it answers. */
async function startServer(dir: string, port: number, callgrind: boolean): Promise<ChildProcess> {
  const server = join(serverBin(), 'postgres');
  const args = ['-D', join(dir, 'data'), '-p', String(port), '-k', dir];
  const [command, argv] = callgrind
    ? pgCommand('valgrind', [
        '--tool=callgrind',
        `--callgrind-out-file=${join(dir, 'cg')}/cg.%p`,
        server,
        ...args,
      ])
    : pgCommand(server, args);
  const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk) => {
    log = (log + chunk).slice(-4000);
  });
  children.push(child);
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`postgres ended: ${log}`);
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      database: 'postgres',
    });
    try {
      await client.connect();
      await client.end();
      return child;
    } catch {
      await delay(200);
    }
  }
  throw new Error(`postgres did not answer: ${log}`);
}

async function stopServer(dir: string, child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const ended = new Promise((resolve) => child.once('exit', resolve));
  const [pgCtl, args] = pgCommand(join(serverBin(), 'pg_ctl'), [
    'stop',
    '-D',
    join(dir, 'data'),
    '-m',
    'fast',
    '-t',
    '300',
  ]);
  execFileSync(pgCtl, args, { stdio: 'ignore' });
  await ended;
}

/** The instructions of `pid`'s backend, from callgrind's file once the backend has ended. */
async function instructionsOf(dir: string, pid: number): Promise<number> {
  const file = join(dir, 'cg', `cg.${pid}`);
  for (let i = 0; i < 600; i++) {
    if (existsSync(file)) {
      const match = /^totals:\s+(\d+)/m.exec(readFileSync(file, 'utf8'));
      if (match) return Number(match[1]);
    }
    await delay(100);
  }
  throw new Error(`no callgrind output for backend ${pid}`);
}

/** Ends every client backend of `database` but the admin's own; their instructions, summed. */
async function endBackends(admin: pg.Client, dir: string, database: string): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>(
    `select pid from pg_stat_activity
     where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    [database],
  );
  await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [
    rows.map((r) => r.pid),
  ]);
  let total = 0;
  for (const { pid } of rows) {
    const n = await instructionsOf(dir, pid);
    if (process.env.BENCH_DEBUG) console.log(`  backend ${pid}: ${n}`);
    total += n;
  }
  // The service's pool and PgBouncer notice the ended connections before the next request.
  await delay(300);
  return total;
}

async function send(base: string, requests: Req[]): Promise<number> {
  let failed = 0;
  for (const r of requests) {
    const response = await fetch(`${base}${r.path}`, {
      method: r.method,
      headers: r.headers,
      body: r.body,
    });
    await response.arrayBuffer();
    if (response.status >= 300) failed++;
  }
  return failed;
}

async function ready(url: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {}
    await delay(250);
  }
  throw new Error(`${url} never answered 200`);
}

/** Each scenario's instructions per request on one service (`pooled`: through PgBouncer). */
async function measure(
  dir: string,
  url: string,
  database: string,
  plan: Plan,
  sim: string,
  pooled: boolean,
  checkouts: () => Req,
): Promise<Map<string, { perRequest: number; failed: number }>> {
  const bouncer = pooled ? await startPgBouncer(url, 1) : undefined;
  const port = await freePort();
  const startScript = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string;
  const service = spawn('sh', ['-c', `exec ${startScript}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: bouncer ? bouncer.urlFor(url) : url,
      DATABASE_POOLER: pooled ? 'transaction' : 'none',
      DATABASE_MIGRATION_URL: url,
      DATABASE_POOL_SIZE: '1',
      // Under callgrind the database runs some fifty times slower.
      DATABASE_STATEMENT_TIMEOUT_MS: '120000',
      DATABASE_POOL_TIMEOUT_MS: '120000',
      JWT_SECRET,
      PORT: String(port),
      LOG_LEVEL: 'error',
      UPSTREAM_URL: sim,
      UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
      UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
      SHUTDOWN_DRAIN_MS: '0',
    },
  });
  children.push(service);
  const base = `http://127.0.0.1:${port}`;
  const admin = new pg.Client({ connectionString: url });
  const results = new Map<string, { perRequest: number; failed: number }>();
  try {
    await ready(`${base}/readyz`);
    await admin.connect();
    for (const name of SCENARIOS) {
      const requests = (n: number) => {
        if (name.startsWith('PATCH')) return Array.from({ length: n }, checkouts);
        const make = scenarios(plan, { random: seededRandom(1) })[name]!;
        return Array.from({ length: n }, make);
      };
      await send(base, requests(W));
      await endBackends(admin, dir, database);
      let failed = await send(base, requests(W));
      const warm = await endBackends(admin, dir, database);
      failed += await send(base, requests(W + M));
      const full = await endBackends(admin, dir, database);
      const perRequest = (full - warm) / M;
      results.set(name, { perRequest, failed });
      console.log(
        `${pooled ? 'pooled' : 'direct'}  ${name}: ${(perRequest / 1000).toFixed(0)}k instructions${failed ? `, ${failed} failed` : ''}`,
      );
    }
  } finally {
    await admin.end().catch(() => {});
    const ended = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    await ended;
    await bouncer?.stop();
  }
  return results;
}

async function main(): Promise<void> {
  execFileSync('valgrind', ['--version']);
  const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
  chmodSync(dir, 0o777);
  mkdirSync(join(dir, 'cg'), { mode: 0o777 });
  chmodSync(join(dir, 'cg'), 0o777);
  const port = await freePort();
  const [initdb, initArgs] = pgCommand(join(serverBin(), 'initdb'), [
    '-D',
    join(dir, 'data'),
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
  ]);
  execFileSync(initdb, initArgs, { stdio: 'ignore' });
  // As the machine's server: jit off (the bench's queries are far below its costs anyway),
  // no autovacuum run in the middle of a count.
  writeFileSync(
    join(dir, 'data', 'postgresql.auto.conf'),
    "listen_addresses = '127.0.0.1'\nautovacuum = off\njit = off\nfsync = off\n",
  );
  const database = 'bench';
  const url = `postgres://postgres@127.0.0.1:${port}/${database}`;
  const sim = await startSimulatorProcess();
  try {
    let server = await startServer(dir, port, false);
    const admin = new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    const db = await openDatabase({ url });
    await db.migrate();
    await db.close();
    const shape: Shape = { scale: SCALE, stores: 50, years: 2 };
    await seed(url, shape, () => {});
    // The operator's step behind a pooler (docs/operations.md), as `npm run bench` takes it.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const text of sessionDefaultsSql(120_000, `DATABASE ${database}`))
      await client.query(text);
    await client.end();
    console.log(`seeded ${SCALE} carts; the database restarted under callgrind`);
    await stopServer(dir, server);
    server = await startServer(dir, port, true);
    await buildServer({ ifStale: true });
    const { file, plan } = writePlan(shape);
    rmSync(file, { force: true });
    // Checkouts never repeat a cart (a repeat answers the stored record): one maker for all.
    const checkouts = scenarios(plan)['PATCH carts/{id}/checkout/']!;
    const direct = await measure(dir, url, database, plan, sim.url, false, checkouts);
    const pooled = await measure(dir, url, database, plan, sim.url, true, checkouts);
    console.log(
      `\ninstructions of the database per request, ${SCALE} carts, ${M} requests after ${W}` +
        ' (valgrind --tool=callgrind)\n',
    );
    console.log('| scenario | direct | through PgBouncer | ratio |');
    console.log('| --- | --- | --- | --- |');
    const rows = [];
    for (const name of SCENARIOS) {
      const a = direct.get(name)!;
      const b = pooled.get(name)!;
      const ratio = b.perRequest / a.perRequest;
      rows.push({ scenario: name, direct: a.perRequest, pooled: b.perRequest, ratio });
      const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en')}k`;
      console.log(`| ${name} | ${k(a.perRequest)} | ${k(b.perRequest)} | ${ratio.toFixed(2)} |`);
      if (a.failed || b.failed) console.log(`  (failed requests: ${a.failed}, ${b.failed})`);
    }
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/instructions.json',
      `${JSON.stringify({ scale: SCALE, M, W, rows }, null, 2)}\n`,
    );
    await stopServer(dir, server);
  } finally {
    await sim.stop();
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

/** The ERP simulator (compiled, as `npm run bench` runs it), for the checkouts. */
async function startSimulatorProcess(): Promise<{ url: string; stop: () => Promise<void> }> {
  await buildServer({ ifStale: true });
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/erp-simulator/main.js'], {
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port) },
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await ready(`${url}/_sim/orders`);
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await ended;
    },
  };
}

main().catch((error) => {
  console.error(error);
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  process.exit(1);
});
