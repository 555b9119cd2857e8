/**
 * `npm run bench` (README "Benchmark"; issues 9 and 19). On the PostgreSQL server of
 * BENCH_DATABASE_URL: a scratch database, migrated and seeded to BENCH_SCALE carts over
 * BENCH_STORES stores and BENCH_YEARS years (bench/seed.ts); the service started as production
 * starts it (`node dist/src/main.js`, built first when stale), the ERP simulator and the two
 * floors (bench/floor.ts: bare and document) each in its own process; every scenario driven
 * by autocannon in a process of its own (bench/load.ts): first a warm-up of every server on
 * the same requests, then the timed runs, the service first in one scenario and last in the
 * next; the database time of each run read from the CPU time of the scratch database's
 * backends (/proc); then the data checked; the scratch database dropped. Prints one table and
 * writes the figures to bench/results/latest.json.
 *
 * BENCH_SCALING=100000,1000000,1000000@500x10 (carts[@stores x years], each entry): the
 * scaling table instead: every scenario against the service alone at each shape, req/s and
 * database ms per request. BENCH_SEED_ONLY=1: seed (timed) and stop.
 * BENCH_PGBOUNCER=1: the service reaches the database through PgBouncer in transaction mode,
 * started from deploy/pgbouncer/pgbouncer.ini (Debian's pgbouncer), with
 * DATABASE_POOLER=transaction; the floors go through it too (same path to the database).
 * BENCH_POOLER=transaction: that mode on a direct connection (what the mode itself costs:
 * unnamed statements, single reads in a transaction).
 * BENCH_PROFILE=<dir>: V8 CPU profiles of the service and the simulator written there on exit.
 * BENCH_TRACING=100 or 1 (percent; default off): the service traces that share of requests
 * (OTEL_TRACES_SAMPLER=parentbased_traceidratio) and exports them over OTLP/HTTP to a sink in
 * this process that reads and drops them, as a collector would take them (issue 31).
 * BENCH_NODE=<path>: the service runs on that Node binary (e.g. /usr/bin/node, the machine's
 * Node 20, beside the project's Node 24; NODE_VERSION_CHECK=off lets it start).
 * After the table (full runs): every scenario at 200 connections for BENCH_OVERLOAD_SECONDS
 * (default 5; 0: none), judged on its answers (2xx, or 503 with Retry-After, within bound).
 * BENCH_VARIANTS='[{"name":"Node 20","node":"/usr/bin/node"},{"name":"traced","env":{…}}]':
 * more services beside the first, each started as it is but with its own node binary and/or
 * more environment (`{otlp}` in a value: the address of an OTLP/HTTP sink the bench runs, which
 * answers every export 200 and keeps nothing; `{database}`: the scratch database's own address,
 * e.g. `{"DATABASE_URL":"{database}","DATABASE_POOLER":"none"}` for a direct service in a
 * BENCH_PGBOUNCER run); each scenario is measured on each of them right
 * after the service, and printed in a second table with its share of the service's req/s.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { promisify } from 'node:util';
import pg from 'pg';
import { DEMO_SERVICE_ACCOUNT } from '../erp-simulator/data.js';
import { buildServer } from '../scripts/build.mjs';
import { openDatabase } from '../src/db/client.js';
import { sessionDefaultsSql } from '../src/db/pool.js';
import { startPgBouncer } from '../test/helpers/pgbouncer.js';
import { freePort } from '../test/helpers/process.js';
import { JWT_SECRET, writePlan } from './plan.js';
import type { Plan } from './scenarios.js';
import { parseScaling, type Shape, seed } from './seed.js';
import { judge, judgeScaling, type OverloadRow, type Row } from './targets.js';

const SERVER = process.env.BENCH_DATABASE_URL;
const SCALE = Math.floor(Number(process.env.BENCH_SCALE ?? 1_000_000));
const STORES = Math.floor(Number(process.env.BENCH_STORES ?? 50));
const YEARS = Number(process.env.BENCH_YEARS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const POOL_SIZE = 10;
/** Seconds of warm-up per server and scenario before the timed runs. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const RESULTS = 'bench/results/latest.json';

/** A service beside the first (BENCH_VARIANTS): its node binary and/or more environment. */
interface Variant {
  name: string;
  node?: string;
  env?: Record<string, string>;
}
const VARIANTS: Variant[] = JSON.parse(process.env.BENCH_VARIANTS ?? '[]');

/** A variant's figures in one scenario. */
interface VariantRow {
  scenario: string;
  variant: string;
  rps: number;
  dbMs: number;
  appMs: number;
  p50: number;
  p99: number;
  failed: number;
  /** Its req/s over the service's in the same scenario. */
  ofService: number;
  /** The variant's peak RSS during its timed run. */
  peakRssMb: number;
}
/** Issue 19's overload: every scenario at this many connections (BENCH_OVERLOAD_SECONDS=0: none). */
const OVERLOAD_CONNECTIONS = 200;
const OVERLOAD_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 5);

/**
 * The staff scenarios over all carts run at 10 connections, where the floor aggregates
 * hundreds of thousands of carts per request (at 50 none of its answers would come within the
 * run; the issue measured those at 10 as well). They are run again at 50 connections against
 * the service alone: no request may fail at 50.
 */
const STAFF_OVER_ALL = [
  'GET carts/ (staff)',
  'GET carts/?created_after=&created_before= (staff)',
  'carts/stats/ (staff)',
  'carts/stats/?created_after=&created_before= (staff)',
  'carts/time-series/?interval=D (staff)',
  'carts/time-series/?interval=D&created_after=&created_before= (staff)',
  'carts/time-series/?interval=M (staff)',
  'carts/time-series/?interval=M&created_after=&created_before= (staff)',
];
type Floor = 'bare' | 'document';
/** Scenario name, and the floors that do the same work (in this run of it). */
const SCENARIOS: [string, Floor[]][] = [
  ['GET carts/{id}/', ['document', 'bare']],
  ['POST items/', ['bare']],
  ['GET carts/ (customer)', ['document', 'bare']],
  ['GET carts/ (staff)', ['bare']],
  ['GET carts/?gln= (staff)', ['bare']],
  ['GET carts/?created_after=&created_before= (staff)', ['bare']],
  ['carts/stats/ (customer)', ['bare']],
  ['carts/stats/ (staff)', ['bare']],
  ['carts/stats/?gln= (staff)', ['bare']],
  ['carts/stats/?created_after=&created_before= (staff)', ['bare']],
  ['carts/time-series/?interval=D (customer)', ['bare']],
  ['carts/time-series/?interval=D (staff)', ['bare']],
  ['carts/time-series/?interval=D&gln= (staff)', ['bare']],
  ['carts/time-series/?interval=D&created_after=&created_before= (staff)', ['bare']],
  ['carts/time-series/?interval=M (staff)', ['bare']],
  ['carts/time-series/?interval=M&gln= (staff)', ['bare']],
  ['carts/time-series/?interval=M&created_after=&created_before= (staff)', ['bare']],
  ...STAFF_OVER_ALL.map((name): [string, Floor[]] => [name, []]),
  ['PATCH carts/{id}/checkout/', ['bare']],
  ['GET /healthz', []],
];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  unavailableWithoutRetryAfter: number;
  statusCodes: Record<string, number>;
}

const children: ChildProcess[] = [];
/** Stopped after the children: PgBouncer, when the service runs through it. */
const stops: (() => Promise<void>)[] = [];

const shapeLabel = (s: Shape) =>
  `${s.scale.toLocaleString('en')} carts, ${s.stores} stores, ${s.years} years`;

async function main(): Promise<void> {
  if (!SERVER) throw new Error('BENCH_DATABASE_URL is required (a PostgreSQL server URL)');
  const scaling = process.env.BENCH_SCALING;
  if (scaling) {
    await scalingTable(parseScaling(scaling, { stores: STORES, years: YEARS }));
    return;
  }
  const shape = { scale: SCALE, stores: STORES, years: YEARS };
  const result = await pass(shape, 'full');
  if (!result) return;
  const { rows, variantRows, overload, checks, seedSeconds } = result;
  const verdicts = judge(rows, overload);
  const missed = verdicts.filter((v) => !v.met);
  console.log(
    `\ntargets (issues 9 and 19): ${verdicts.length - missed.length} of ${verdicts.length} met`,
  );
  for (const v of verdicts)
    console.log(`  ${v.met ? 'met' : 'NOT MET'}: ${v.target} (${v.figure})`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    RESULTS,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        ...shape,
        seconds: SECONDS,
        poolSize: POOL_SIZE,
        seedSeconds,
        scenarios: rows,
        variants: variantRows,
        overload,
        targets: verdicts,
        checks,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`figures: ${RESULTS}`);
  if (!checks.ok) process.exitCode = 1;
}

/** Every scenario against the service alone at each shape: req/s and database ms per request. */
async function scalingTable(shapes: Shape[]) {
  const passes: { shape: Shape; rows: (Row & { connections: number })[]; ok: boolean }[] = [];
  for (const shape of shapes) {
    const result = await pass(shape, 'service');
    if (!result) return;
    passes.push({ shape, rows: result.rows, ok: result.checks.ok });
  }
  const names = passes[0]!.rows.map((r) => r.scenario);
  console.log(
    `\nscaling: ${SECONDS} s per scenario against the service alone, pool ${POOL_SIZE}; ` +
      'req/s | database ms per request (CPU of the scratch database’s backends)\n',
  );
  console.log(`| scenario | ${passes.map((p) => shapeLabel(p.shape)).join(' | ')} |`);
  console.log(`|---|${passes.map(() => '---:').join('|')}|`);
  for (const name of names) {
    const cells = passes.map((p) => {
      const r = p.rows.find((x) => x.scenario === name);
      return r ? `${Math.round(r.service.rps)} \\| ${r.service.dbMs?.toFixed(2) ?? '–'}` : '–';
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  const verdicts = judgeScaling(passes.map((p) => ({ label: shapeLabel(p.shape), rows: p.rows })));
  const missed = verdicts.filter((v) => !v.met);
  console.log(`\ntargets (issue 19): ${verdicts.length - missed.length} of ${verdicts.length} met`);
  for (const v of verdicts)
    console.log(`  ${v.met ? 'met' : 'NOT MET'}: ${v.target} (${v.figure})`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/scaling.json',
    `${JSON.stringify({ date: new Date().toISOString(), seconds: SECONDS, passes, targets: verdicts }, null, 2)}\n`,
  );
  console.log('figures: bench/results/scaling.json');
  if (passes.some((p) => !p.ok)) process.exitCode = 1;
}

/**
 * One shape: a scratch database seeded, the servers started, the scenarios run (`full`:
 * against the service and its floors; `service`: the service alone), the data checked, the
 * servers stopped and the database dropped.
 */
async function pass(shape: Shape, mode: 'full' | 'service') {
  const scratch = await createScratchDatabase(SERVER!);
  try {
    return await bench(scratch.url, shape, mode);
  } finally {
    // The processes end before their database is dropped (a drop with force ends their
    // connections under them).
    await Promise.all(children.splice(0).map(stopped));
    for (const stop of stops.splice(0)) await stop().catch(() => {});
    await scratch.drop();
  }
}

async function bench(url: string, shape: Shape, mode: 'full' | 'service') {
  console.log(`\nscratch database; ${shapeLabel(shape)}`);
  const database = await openDatabase({ url });
  await database.migrate();
  await database.close();
  const seedStart = performance.now();
  await seed(url, shape, console.log);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  console.log(`seeded in ${seedSeconds.toFixed(1)} s`);
  if (process.env.BENCH_SEED_ONLY === '1') return undefined;
  if (process.env.BENCH_PGBOUNCER === '1' && process.env.BENCH_DB_DEFAULTS !== '0') {
    // The operator's step behind a pooler (docs/operations.md), on the scratch database
    // (after the seed, whose statements run longer than the bound): the service finds the
    // settings as its server connections' defaults and single reads go without them.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const name = new URL(url).pathname.slice(1);
    for (const text of sessionDefaultsSql(5000, `DATABASE ${name}`)) await client.query(text);
    await client.end();
    console.log('session settings set as the database defaults (BENCH_DB_DEFAULTS=0: not)');
  }

  const [simPort, servicePort, barePort, documentPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const sim = `http://127.0.0.1:${simPort}`;
  const otlp = VARIANTS.length > 0 ? await otlpSink() : undefined;
  if (otlp) stops.push(otlp.stop);
  // As production runs it: compiled, with plain node (the simulator too, so that it costs
  // the machine no more than a real ERP's stand-in should).
  await buildServer({ ifStale: true });
  start('node', [...profiled('simulator'), 'dist/erp-simulator/main.js'], {
    PORT: String(simPort),
  });
  await ready(`${sim}/_sim/orders`);
  // The start command of package.json (the README's production section), through sh as npm
  // runs it; `exec` keeps the service's pid for the memory samples.
  const startScript = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string;
  const bouncer = process.env.BENCH_PGBOUNCER === '1' ? await startPgBouncer(url) : undefined;
  if (bouncer) stops.push(() => bouncer.stop());
  const pooler = bouncer ? 'transaction' : (process.env.BENCH_POOLER ?? 'none');
  console.log(
    bouncer
      ? `service and floors through PgBouncer (deploy/pgbouncer/pgbouncer.ini, port ${bouncer.port}), DATABASE_POOLER=transaction`
      : `service on a direct connection, DATABASE_POOLER=${pooler}`,
  );
  const serviceNode = process.env.BENCH_NODE ?? 'node';
  const tracing = await tracingSettings();
  console.log(
    `service on ${execFileSync(serviceNode === 'node' ? process.execPath : serviceNode, ['-v'])
      .toString()
      .trim()}, ` + `tracing ${tracing ? `on, ${process.env.BENCH_TRACING} % sampled` : 'off'}`,
  );
  const serviceEnv = (port: number): Record<string, string> => ({
    NODE_ENV: 'production',
    DATABASE_URL: bouncer ? bouncer.urlFor(url) : url,
    DATABASE_POOLER: pooler,
    DATABASE_MIGRATION_URL: url,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    JWT_SECRET,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    UPSTREAM_URL: sim,
    UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
    UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
    // No balancer to wait for: the service ends at once when the bench is done.
    SHUTDOWN_DRAIN_MS: '0',
    // The start command's heap limit, when set for the run.
    ...(process.env.HEAP_LIMIT_MB ? { HEAP_LIMIT_MB: process.env.HEAP_LIMIT_MB } : {}),
  });
  const command = startScript.replace(/^node /, `${serviceNode} ${profiled('service').join(' ')} `);
  const service = start('sh', ['-c', `exec ${command}`], {
    ...serviceEnv(servicePort),
    ...(process.env.BENCH_NODE ? { NODE_VERSION_CHECK: 'off' } : {}),
    ...tracing,
  });
  const variants: { variant: Variant; url: string; pid?: number }[] = [];
  for (const variant of VARIANTS) {
    const port = await freePort();
    const env = Object.fromEntries(
      Object.entries(variant.env ?? {}).map(([k, v]) => [
        k,
        v.replaceAll('{otlp}', otlp?.url ?? '').replaceAll('{database}', url),
      ]),
    );
    const variantCommand = startScript.replace(/^node /, `${variant.node ?? 'node'} `);
    const child = start('sh', ['-c', `exec ${variantCommand}`], { ...serviceEnv(port), ...env });
    variants.push({ variant, url: `http://127.0.0.1:${port}`, pid: child.pid });
  }
  const floors: Record<Floor, string> = {
    bare: `http://127.0.0.1:${barePort}`,
    document: `http://127.0.0.1:${documentPort}`,
  };
  const floorPids: Partial<Record<Floor, number>> = {};
  if (mode === 'full') {
    for (const [kind, port] of [
      ['bare', barePort],
      ['document', documentPort],
    ] as const) {
      floorPids[kind] = start('node', ['--import', 'tsx', 'bench/floor.ts'], {
        // Through PgBouncer when the service is: a floor on the same path to the database
        // (its statements are unnamed texts, which transaction pooling allows).
        DATABASE_URL: bouncer ? bouncer.urlFor(url) : url,
        DATABASE_POOL_SIZE: String(POOL_SIZE),
        JWT_SECRET,
        PORT: String(port),
        FLOOR: kind,
        UPSTREAM_URL: sim,
        UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
        UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
      }).pid;
    }
  }
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  await ready(`${serviceUrl}/healthz`);
  for (const v of variants) await ready(`${v.url}/healthz`);
  if (mode === 'full') {
    await ready(`${floors.bare}/api/v1/carts/stats/`, true);
    await ready(`${floors.document}/api/v1/carts/stats/`, true);
  }

  const plan = writePlan(shape);
  const planFile = plan.file;
  const client = new pg.Client({ connectionString: url });
  // A broken connection fails the next query (with its error), not the process.
  client.on('error', (error) => console.error(`bench connection: ${error.message}`));
  await client.connect();
  // The checks read whole tables: not under the service's statement bound, which a pooler
  // run sets as the database's default (BENCH_DB_DEFAULTS).
  await client.query('set statement_timeout = 0');
  if (mode === 'full') await sameDocuments(serviceUrl, floors.document, plan.plan);
  // Checkout records of the run: after the seeded ones.
  const seededCheckouts = (
    await client.query('select coalesce(max(id), 0)::int as n from checkouts')
  ).rows[0].n as number;
  const databaseName = new URL(url).pathname.slice(1);
  const measured = async (
    base: string,
    name: string,
    connections: number,
    env: Record<string, string> = {},
  ) => {
    const pid =
      base === serviceUrl
        ? service.pid
        : (variants.find((v) => v.url === base)?.pid ??
          floorPids[base === floors.bare ? 'bare' : 'document']);
    const before = await backendTicks(client, databaseName);
    const appBefore = processTicks(pid);
    const figures = await load(base, name, planFile, connections, SECONDS, env);
    const appAfter = processTicks(pid);
    const after = await backendTicks(client, databaseName);
    const requests = Math.max(1, figures.requests);
    return {
      ...figures,
      dbMs: cpuMs(before, after) / requests,
      appMs: ((appAfter - appBefore) * TICK_MS) / requests,
    };
  };

  const rows: (Row & { connections: number })[] = [];
  const variantRows: VariantRow[] = [];
  console.log(
    `\n${SECONDS} s per scenario after ${WARMUP} s of warm-up per server, 50 connections ` +
      `unless said, pool ${POOL_SIZE}, ${shapeLabel(shape)}; db ms, app ms: database CPU and the server process's CPU per request\n\n` +
      '| scenario | req/s | db ms | app ms | p50 ms | p99 ms | non-2xx | document floor req/s | ' +
      'db ms | app ms | ratio | floor req/s | db ms | app ms | ratio | peak RSS MB |\n' +
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  const only = process.env.BENCH_ONLY;
  let index = 0;
  for (const [name, scenarioFloors] of SCENARIOS) {
    const staffOverAll = STAFF_OVER_ALL.includes(name);
    const used = mode === 'full' ? scenarioFloors : [];
    // The staff scenarios over all carts: at 10 connections where a naive floor runs beside
    // them; in the service-alone pass once, at 10 (the scaling table).
    if (mode === 'service' && staffOverAll && scenarioFloors.length === 0) continue;
    const connections = staffOverAll && (used.length > 0 || mode === 'service') ? 10 : 50;
    if (only && !only.split('|').some((part) => name.includes(part))) continue;
    // Each server checks out carts of its own: the service every n-th cart of the list, the
    // floors the ones between (a cart checked out by one would cost the other no order).
    // Variants are servers 1…V, the floors after them.
    const servers = used.length + 1 + variants.length;
    const share = (server: number): Record<string, string> =>
      name.includes('checkout') && servers > 1
        ? { BENCH_CHECKOUT_SHARE: `${server}/${servers}` }
        : {};
    // Each server is warmed on the same requests right before its own timed run (the
    // checkout's warm-up checks out carts of its own, from the other end of the list): the
    // first requests of a path after a start cost more (the first checkouts raised the
    // service's RSS by 20-30 MB for 0.2 s, once), and a floor's naive aggregates read the
    // whole carts table, which leaves the next server PostgreSQL's buffers of other pages.
    // Warmed all before any timed run, the service was always measured right after a floor's
    // load: the staff page between dates at 2.14 ms of database time, 1.84 warmed right before
    // (1.72 and 1.70 alone; 1M carts, the same hour).
    // Checkouts each server made (warm-up and timed run) against the carts it was given.
    const checkoutsMade = new Map<number, number>();
    const count = (server: number, requests: number) =>
      checkoutsMade.set(server, (checkoutsMade.get(server) ?? 0) + requests);
    const warm = async (base: string, server: number) => {
      if (WARMUP > 0) {
        const f = await load(base, name, planFile, connections, WARMUP, {
          BENCH_WARMING_UP: '1',
          ...share(server),
        });
        count(server, f.requests);
      }
    };
    // The service first in one scenario, last in the next.
    const serviceFirst = index++ % 2 === 0;
    const measuredFloors: Partial<Record<Floor, Figures & { dbMs: number; appMs: number }>> = {};
    const runFloors = async () => {
      for (const [i, f] of used.entries()) {
        await warm(floors[f], variants.length + i + 1);
        measuredFloors[f] = await measured(
          floors[f],
          name,
          connections,
          share(variants.length + i + 1),
        );
        count(variants.length + i + 1, measuredFloors[f]!.requests);
      }
    };
    if (!serviceFirst) await runFloors();
    await warm(serviceUrl, 0);
    const rss = sampleRss(service.pid!);
    const figures = await measured(serviceUrl, name, connections, share(0));
    count(0, figures.requests);
    const peakRssMb = rss.stop() / 1024;
    for (const [i, v] of variants.entries()) {
      await warm(v.url, i + 1);
      const variantRss = sampleRss(v.pid!);
      const f = await measured(v.url, name, connections, share(i + 1));
      count(i + 1, f.requests);
      const variantPeakRssMb = variantRss.stop() / 1024;
      variantRows.push({
        scenario: name,
        variant: v.variant.name,
        rps: f.rps,
        dbMs: f.dbMs,
        appMs: f.appMs,
        p50: f.p50,
        p99: f.p99,
        failed: f.non2xx + f.errors,
        ofService: figures.rps > 0 ? f.rps / figures.rps : 0,
        peakRssMb: variantPeakRssMb,
      });
    }
    if (serviceFirst) await runFloors();
    if (name.includes('checkout')) {
      const carts = Math.floor(plan.plan.checkoutCarts.length / servers);
      for (const [server, made] of checkoutsMade) {
        if (made > carts) {
          console.log(
            `WARNING: ${name}: server ${server} made ${made} checkouts over its ${carts} carts: ` +
              'the repeats answered stored records, its rate is not comparable',
          );
        }
      }
    }
    const floor = measuredFloors.bare;
    const document = measuredFloors.document;
    const ratio = floor?.rps ? figures.rps / floor.rps : undefined;
    const documentRatio = document?.rps ? figures.rps / document.rps : undefined;
    rows.push({
      scenario: name,
      connections,
      service: figures,
      floor,
      document,
      ratio,
      documentRatio,
      peakRssMb,
    });
    const label = !staffOverAll
      ? name
      : used.length > 0 || mode === 'service'
        ? `${name}, ${connections} connections`
        : `${name}, ${connections} connections, service alone`;
    const n = (x: number | undefined, digits = 0) => (x === undefined ? '–' : x.toFixed(digits));
    console.log(
      `| ${label} | ${Math.round(figures.rps)} | ${figures.dbMs.toFixed(2)} | ` +
        `${figures.appMs.toFixed(2)} | ${figures.p50} | ` +
        `${figures.p99} | ${figures.non2xx + figures.errors} | ${n(document?.rps)} | ` +
        `${n(document?.dbMs, 2)} | ${n(document?.appMs, 2)} | ${n(documentRatio, 2)} | ` +
        `${n(floor?.rps)} | ${n(floor?.dbMs, 2)} | ${n(floor?.appMs, 2)} | ${n(ratio, 2)} | ` +
        `${peakRssMb.toFixed(0)} |`,
    );
  }
  const overload =
    mode === 'full' && OVERLOAD_SECONDS > 0
      ? await overloadRuns(serviceUrl, planFile, service.pid!, only)
      : [];
  if (variantRows.length > 0) {
    console.log(
      '\n| scenario | variant | req/s | db ms | app ms | p50 ms | p99 ms | non-2xx | of the service | peak RSS MB |\n' +
        '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of variantRows) {
      console.log(
        `| ${r.scenario} | ${r.variant} | ${Math.round(r.rps)} | ${r.dbMs.toFixed(2)} | ` +
          `${r.appMs.toFixed(2)} | ${r.p50} | ${r.p99} | ${r.failed} | ${r.ofService.toFixed(2)} | ` +
          `${r.peakRssMb.toFixed(0)} |`,
      );
    }
  }
  const checks = await dataChecks(client, sim, seededCheckouts);
  await client.end();
  rmSync(planFile);
  return { rows, variantRows, overload, checks, seedSeconds };
}

/**
 * Every scenario again at OVERLOAD_CONNECTIONS against the service alone, for
 * BENCH_OVERLOAD_SECONDS: each answer must be 2xx, or 503 with `Retry-After` (the pool's
 * wait bound), and come within the service's bound (autocannon's timeout).
 */
async function overloadRuns(serviceUrl: string, planFile: string, pid: number, only?: string) {
  console.log(
    `\noverload: ${OVERLOAD_CONNECTIONS} connections, ${OVERLOAD_SECONDS} s per scenario, ` +
      'service alone; bound: the pool’s wait plus the statement timeout (plus the upstream ' +
      'timeout for checkout)\n\n' +
      '| scenario | req/s | p99 ms | 2xx | 503 | 503 without Retry-After | other | errors, timeouts | peak RSS MB |\n' +
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const rows: OverloadRow[] = [];
  for (const name of new Set(SCENARIOS.map(([name]) => name))) {
    if (only && !only.split('|').some((part) => name.includes(part))) continue;
    const rss = sampleRss(pid);
    const figures = await load(serviceUrl, name, planFile, OVERLOAD_CONNECTIONS, OVERLOAD_SECONDS, {
      BENCH_TIMEOUT_SECONDS: String(boundSeconds(name)),
    });
    const peakRssMb = rss.stop() / 1024;
    const count = (test: (code: number) => boolean) =>
      Object.entries(figures.statusCodes)
        .filter(([code]) => test(Number(code)))
        .reduce((n, [, k]) => n + k, 0);
    const row: OverloadRow = {
      scenario: name,
      rps: figures.rps,
      p99: figures.p99,
      ok: count((c) => c >= 200 && c < 300),
      unavailable: count((c) => c === 503),
      unavailableWithoutRetryAfter: figures.unavailableWithoutRetryAfter,
      other: count((c) => (c < 200 || c >= 300) && c !== 503),
      errors: figures.errors + figures.timeouts,
      peakRssMb,
    };
    rows.push(row);
    console.log(
      `| ${name} | ${Math.round(row.rps)} | ${row.p99} | ${row.ok} | ${row.unavailable} | ` +
        `${row.unavailableWithoutRetryAfter} | ${row.other} | ${row.errors} | ${peakRssMb.toFixed(0)} |`,
    );
  }
  return rows;
}

/** The service's bound on a request at its defaults (seconds), past which it counts as a timeout. */
function boundSeconds(scenario: string): number {
  const poolWait = 3;
  const statement = 5;
  const upstream = 10;
  // A checkout: the claim, the order upstream (and once more after a fresh service login),
  // the record.
  if (scenario.includes('checkout')) return 2 * (poolWait + statement) + 2 * upstream + 1;
  return poolWait + statement + 1;
}

/**
 * The document floor builds the same JSON as the service: one cart and a customer's first
 * page, compared field for field before the runs (else its figures would judge nothing).
 */
async function sameDocuments(service: string, document: string, plan: Plan) {
  const [id, owner] = plan.anyCarts[0]!;
  const headers = { authorization: `Bearer ${plan.tokens[owner]}` };
  for (const path of [`/api/v1/carts/${id}/`, '/api/v1/carts/']) {
    const [a, b] = await Promise.all(
      [service, document].map(async (base) => (await fetch(`${base}${path}`, { headers })).json()),
    );
    const normal = (x: unknown) =>
      JSON.stringify(x, (_, v) =>
        typeof v === 'string' && v.startsWith('http') ? new URL(v).search : v,
      );
    if (normal(a) !== normal(b)) {
      throw new Error(
        `the document floor's ${path} differs from the service's:\n${normal(a)}\n${normal(b)}`,
      );
    }
  }
}

/**
 * An OTLP/HTTP sink for traced variants: reads each export whole and answers 200 with an empty
 * answer (what a collector that accepts everything says), keeping nothing.
 */
async function otlpSink(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createHttpServer((request, response) => {
    request.on('data', () => {});
    request.on('end', () => {
      const json = String(request.headers['content-type']).includes('json');
      response.writeHead(200, {
        'content-type': json ? 'application/json' : 'application/x-protobuf',
      });
      response.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Clock ticks of CPU (user + system) of one process (0 when it is gone). */
function processTicks(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Clock ticks of CPU (user + system) per backend process of the database, by pid. */
async function backendTicks(client: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1',
    [database],
  );
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Gone since the query: its time is lost to this sample.
    }
  }
  return ticks;
}

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);

/** CPU milliseconds the backends spent between two samples (new backends: all their time). */
function cpuMs(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks * TICK_MS;
}

/**
 * The data afterwards: counters equal their lines; every rollup grain equals an aggregate of
 * the carts; one checkout record per order upstream.
 */
async function dataChecks(client: pg.Client, sim: string, seededCheckouts: number) {
  // Requests still in flight when a load stopped finish first: wait until the counts agree
  // (or have not moved for 5 s).
  const counts = async () => {
    const checkouts = (
      await client.query('select count(*)::int as n from checkouts where id > $1', [
        seededCheckouts,
      ])
    ).rows[0].n as number;
    const orders = ((await (await fetch(`${sim}/_sim/orders`)).json()) as unknown[]).length;
    return { checkouts, orders };
  };
  let { checkouts, orders } = await counts();
  for (let still = 0; checkouts !== orders && still < 10; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await counts();
    still = now.checkouts === checkouts && now.orders === orders ? still + 1 : 0;
    ({ checkouts, orders } = now);
  }
  // stopped can leave a claimed cart whose order was placed; a retry completes it under the
  // same idempotency key. Each must be such a claimed cart, and no cart may have two orders.
  const placed = (await (await fetch(`${sim}/_sim/orders`)).json()) as {
    idempotency_key: string;
  }[];
  const orderCarts = placed.map((o) => Number(o.idempotency_key.split('-')[1]));
  const unrecorded = (
    await client.query(
      `select count(*)::int as n, count(*) filter (where c.checkout_started_at is not null
         and c.checkout_frozen and not c.checked_out)::int as claimed
       from carts c where c.id = any($1)
         and not exists (select 1 from checkouts k where k.cart_id = c.id)`,
      [orderCarts],
    )
  ).rows[0] as { n: number; claimed: number };
  const distinctOrderCarts = new Set(orderCarts).size;
  const mismatched = (
    await client.query(
      `select count(*)::int as n from carts c
       left join (select cart_id, count(*) as n, sum(quantity) as q from items group by cart_id) i
         on i.cart_id = c.id
       where c.items_count <> coalesce(i.n, 0) or c.total_quantity <> coalesce(i.q, 0)`,
    )
  ).rows[0].n as number;
  // The rollups (src/carts/rollups.ts) against a fresh aggregate of the carts.
  const wrongRollups = (
    await client.query(
      `with stored as (select store_id, day, checked_out, checkout_availability_error, carts,
                              items_count, total_quantity from cart_rollups where carts <> 0),
       fresh as (select store_id, (created at time zone 'UTC')::date, checked_out,
                        checkout_availability_error, count(*)::int, sum(items_count)::bigint,
                        sum(total_quantity)::bigint from carts group by 1, 2, 3, 4)
       select count(*)::int as n from
         ((select * from stored except select * from fresh)
          union all (select * from fresh except select * from stored)) d`,
    )
  ).rows[0].n as number;
  // The coarser grains (drizzle/0006_rollup_grains.sql), the shards summed, against a fresh
  // aggregate of the carts.
  const wrongGrains = (
    await client.query(
      `with grains as (select x.grain, x.period, store_id, checked_out,
                              checkout_availability_error, items_count, total_quantity
                       from carts cross join lateral (values
                         ('D', (created at time zone 'UTC')::date),
                         ('M', date_trunc('month', created at time zone 'UTC')::date),
                         ('T', '-infinity'::date)) x(grain, period)),
       stored as (select 's' as scope, grain, period, store_id, false as warehouse, checked_out,
                         checkout_availability_error, carts, items_count, total_quantity
                  from cart_grains where carts <> 0
                  union all
                  select 'a', grain, period, null, warehouse, checked_out,
                         checkout_availability_error, sum(carts), sum(items_count),
                         sum(total_quantity)
                  from cart_grains_all group by 2, 3, 5, 6, 7 having sum(carts) <> 0),
       fresh as (select 's' as scope, grain, period, store_id, false as warehouse, checked_out,
                        checkout_availability_error, count(*)::bigint, sum(items_count)::bigint,
                        sum(total_quantity)::bigint
                 from grains where grain <> 'D' group by 2, 3, 4, 6, 7
                 union all
                 select 'a', grain, period, null, store_id is null, checked_out,
                        checkout_availability_error, count(*), sum(items_count),
                        sum(total_quantity)
                 from grains group by 2, 3, 5, 6, 7)
       select count(*)::int as n from
         ((select * from stored except select * from fresh)
          union all (select * from fresh except select * from stored)) d`,
    )
  ).rows[0].n as number;
  // The days over all stores and flags (cart_days), the shards summed.
  const wrongDays = (
    await client.query(
      `with stored as (select day, sum(carts)::bigint, sum(items_count)::bigint,
                              sum(total_quantity)::bigint
                       from cart_days group by 1 having sum(carts) <> 0),
       fresh as (select (created at time zone 'UTC')::date, count(*)::bigint,
                        sum(items_count)::bigint, sum(total_quantity)::bigint
                 from carts group by 1)
       select count(*)::int as n from
         ((select * from stored except select * from fresh)
          union all (select * from fresh except select * from stored)) d`,
    )
  ).rows[0].n as number;
  // The hours over all stores and flags (cart_hours), the shards summed.
  const wrongHours = (
    await client.query(
      `with stored as (select hour, sum(carts)::bigint, sum(items_count)::bigint,
                              sum(total_quantity)::bigint
                       from cart_hours group by 1 having sum(carts) <> 0),
       fresh as (select date_trunc('hour', created at time zone 'UTC'), count(*)::bigint,
                        sum(items_count)::bigint, sum(total_quantity)::bigint
                 from carts group by 1)
       select count(*)::int as n from
         ((select * from stored except select * from fresh)
          union all (select * from fresh except select * from stored)) d`,
    )
  ).rows[0].n as number;
  // The counts (cart_counts) against the rollups' own.
  const wrongCounts = (
    await client.query(
      `select count(*)::int as n from cart_rollups r
       full join cart_counts n using (store_id, day, checked_out, checkout_availability_error)
       where r.carts is distinct from n.carts`,
    )
  ).rows[0].n as number;
  const ok =
    mismatched === 0 &&
    wrongRollups === 0 &&
    wrongGrains === 0 &&
    wrongDays === 0 &&
    wrongHours === 0 &&
    wrongCounts === 0 &&
    distinctOrderCarts === orders &&
    checkouts + unrecorded.n === orders &&
    unrecorded.claimed === unrecorded.n;
  const checks = {
    cartsWithWrongCounters: mismatched,
    rollupRowsDifferingFromCarts: wrongRollups,
    grainRowsDifferingFromCarts: wrongGrains,
    dayRowsDifferingFromCarts: wrongDays,
    hourRowsDifferingFromCarts: wrongHours,
    countRowsDifferingFromRollups: wrongCounts,
    checkoutsCreated: checkouts,
    orders,
    distinctOrderCarts,
    ordersOfClaimedCartsWithoutRecord: unrecorded.n,
    ok,
  };
  console.log(
    `\ncarts whose counters differ from their lines: ${mismatched}` +
      `\nrollup rows that differ from an aggregate of the carts: ${wrongRollups}` +
      `\nmonth, all-time and all-store rows that differ from it: ${wrongGrains}` +
      `\nday rows over all stores and flags that differ from it: ${wrongDays}` +
      `\nhour rows over all stores and flags that differ from it: ${wrongHours}` +
      `\ncount rows that differ from the rollups: ${wrongCounts}` +
      `\ncheckout records created during the run: ${checkouts}; orders upstream: ${orders} ` +
      `(for ${distinctOrderCarts} carts); orders of carts left claimed without a record by ` +
      `requests cut off at the end of a load: ${unrecorded.n} (${unrecorded.claimed} claimed)` +
      (ok ? '\nchecks: OK' : '\nchecks: FAILED'),
  );
  return checks;
}

async function load(
  base: string,
  scenario: string,
  planFile: string,
  connections: number,
  seconds = SECONDS,
  env: Record<string, string> = {},
): Promise<Figures> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'bench/load.ts', base, scenario, planFile],
    {
      env: {
        ...process.env,
        BENCH_SECONDS: String(seconds),
        BENCH_CONNECTIONS: String(connections),
        ...env,
      },
      maxBuffer: 1 << 24,
    },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as Figures;
}

/** The highest VmRSS (kB) of a process while the load runs, sampled every 100 ms. */
function sampleRss(pid: number) {
  let peak = 0;
  const read = () => {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) peak = Math.max(peak, Number(match[1]));
  };
  read();
  const timer = setInterval(read, 100);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

/**
 * BENCH_TRACING=<percent>: an OTLP/HTTP sink (reads each export, answers 200, keeps nothing)
 * and the service's OTEL_* settings for it; undefined when tracing stays off.
 */
async function tracingSettings(): Promise<Record<string, string> | undefined> {
  const percent = process.env.BENCH_TRACING;
  if (!percent || percent === 'off' || percent === '0') return undefined;
  const ratio = Number(percent) / 100;
  if (!(ratio > 0 && ratio <= 1))
    throw new Error(`BENCH_TRACING must be a percentage, got ${percent}`);
  const { createServer: createHttpServer } = await import('node:http');
  let exports = 0;
  const sink = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => sink.once('listening', resolve));
  stops.push(async () => {
    console.log(`tracing sink: ${exports} exports received`);
    await new Promise((resolve) => sink.close(resolve));
  });
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as { port: number }).port}`,
    OTEL_SERVICE_NAME: 'ordering-bench',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: String(ratio),
  };
}

/** BENCH_PROFILE=<dir>: the service and the simulator write V8 CPU profiles there on exit. */
function profiled(name: string): string[] {
  const dir = process.env.BENCH_PROFILE;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}/${name}`] : [];
}

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

/** SIGTERM, and the exit awaited (SIGKILL after 10 s). */
async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Waits until the URL answers (any status when `anyStatus`, else 2xx). */
async function ready(url: string, anyStatus = false) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const response = await fetch(url);
      if (anyStatus || response.ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function createScratchDatabase(serverUrl: string) {
  const name = `ordering_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

main().catch((error) => {
  console.error(error);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
});
