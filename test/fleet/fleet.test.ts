import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Agent, fetch as fetchFrom } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../../erp-simulator/data.js';
import { sample } from '../helpers/metrics.js';
import { type PgBouncer, pgbouncerInstalled, startPgBouncer } from '../helpers/pgbouncer.js';
import { freePort } from '../helpers/process.js';
import { redisServerAvailable, ThrowawayRedis } from '../helpers/redis-server.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../helpers/wait.js';
import {
  type HaProxy,
  haproxyInstalled,
  type Instance,
  instanceEnv,
  type Proc,
  spawnProc,
  startHaProxy,
  startInstance,
  startSimulatorProcess,
} from './cluster.js';
import { expectConsistent as checkConsistent } from './consistency.js';
import { failedCount, Load, type Tally, type User } from './load.js';

/**
 * Issue 18: a fleet as an operator runs it, from the files in deploy/ — HAProxy
 * (deploy/haproxy/haproxy.cfg) in front of three instances started with `npm start`'s
 * command and deploy/fleet/instance.env.example, on a fresh database on the PostgreSQL
 * server, a redis-server of its own, the ERP simulator as a process of its own — in two
 * variants: through PgBouncer in transaction mode (deploy/pgbouncer/pgbouncer.ini, as the
 * example file has it) and directly to PostgreSQL (`DATABASE_POOLER=none`). Each file is
 * changed only for ports, paths, addresses and secrets. Between the database and its clients
 * (PgBouncer, or the instances) sits a TCP proxy the test cuts to take the database away
 * (the shared server is never restarted). `npm run test:fleet` (FLEET_VARIANT=pgbouncer or
 * direct: one of them); prints its figures per variant.
 */

const ADMIN_URL =
  process.env.FLEET_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const CLIENTS = Number(process.env.FLEET_CLIENTS ?? 8);
const STORE = '4012345000009';

interface Variant {
  key: 'pgbouncer' | 'direct';
  title: string;
  pgbouncer: boolean;
  /**
   * Requests of the load phases: before the SIGKILL and after it, before the rolling
   * restart and after each instance's return, during the Redis outage.
   */
  load: {
    beforeKill: number;
    afterKill: number;
    rollStart: number;
    rollEach: number;
    redis: number;
  };
}

const VARIANTS: Variant[] = [
  {
    key: 'pgbouncer',
    title: 'through PgBouncer in transaction mode',
    pgbouncer: true,
    load: { beforeKill: 300, afterKill: 200, rollStart: 200, rollEach: 100, redis: 100 },
  },
  {
    // Shorter load phases: the same scenarios, the pooler's variant has the long ones.
    key: 'direct',
    title: 'directly to PostgreSQL (DATABASE_POOLER=none)',
    pgbouncer: false,
    load: { beforeKill: 150, afterKill: 100, rollStart: 100, rollEach: 50, redis: 60 },
  },
];
const ONLY = process.env.FLEET_VARIANT;

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const missingForAll = [
  haproxyInstalled ? '' : 'haproxy',
  redisServerAvailable ? '' : 'redis-server',
  (await postgresReachable()) ? '' : `PostgreSQL at ${new URL(ADMIN_URL).host}`,
].filter(Boolean);

function missingFor(variant: Variant): string[] {
  const missing = [...missingForAll, variant.pgbouncer && !pgbouncerInstalled ? 'pgbouncer' : ''];
  return missing.filter(Boolean);
}

for (const variant of VARIANTS) {
  const missing = missingFor(variant);
  if (missing.length > 0) {
    console.log(
      `fleet test ${variant.key} skipped: ${missing.join(', ')} missing (apt-get install -y haproxy pgbouncer redis-server; .ci/run installs them)`,
    );
  }
}

const anne = DEMO_USERS.find((u) => u.username === 'anna')!;
const bruno = DEMO_USERS.find((u) => u.username === 'bruno')!;

async function login(base: string, user: { username: string; password: string }) {
  const answer = await fetch(`${base}/api/v1/auth/jwt/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  const body = await answer.json();
  expect(answer.status, JSON.stringify(body)).toBe(200);
  return { token: body.token as string, upstreamToken: body.upstream_token as string };
}

async function api(
  base: string,
  method: string,
  path: string,
  user: { token: string; upstreamToken?: string },
  body?: unknown,
) {
  const answer = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${user.token}`,
      ...(user.upstreamToken ? { 'authorization-upstream': `Bearer ${user.upstreamToken}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the answers' bodies are read field by field
  return { status: answer.status, text, body: parsed as any, headers: answer.headers };
}

interface Socket {
  ws: WebSocket;
  messages: { type: string; data: { cart: number } }[];
  closed: Promise<number>;
}

/** Every variant's figures, printed together at the end. */
const allFigures: Record<string, Record<string, unknown>> = {};

afterAll(() => {
  const summary = Object.entries(allFigures).map(([key, f]) => {
    const sigkill = f.sigkill as { requests: number; failed: number; failuresByCause: object };
    const roll = f.rollingRestart as { requests: number; failed: number };
    return {
      variant: key,
      sigkillRequests: sigkill?.requests,
      sigkillFailed: sigkill?.failed,
      sigkillFailuresByCause: sigkill?.failuresByCause,
      ejectMs: f.ejectMs,
      rollingRestartRequests: roll?.requests,
      rollingRestartFailed: roll?.failed,
      redisOutage: f.redisOutage,
      databaseCut: f.databaseCut,
    };
  });
  if (summary.length > 0) console.log(`fleet summary: ${JSON.stringify(summary, null, 2)}`);
});

for (const variant of VARIANTS) defineFleet(variant);

function defineFleet(variant: Variant) {
  const figures: Record<string, unknown> = {};
  let database: { name: string; url: string } | undefined;
  let databaseProxy: TcpProxy | undefined;
  let bouncer: PgBouncer | undefined;
  let redis: ThrowawayRedis | undefined;
  let sim: Proc | undefined;
  let simUrl = '';
  let haproxy: HaProxy | undefined;
  let env: Record<string, string> = {};
  const instances: Instance[] = [];
  const tallies: Tally[] = [];
  let anna: User;
  let db: pg.Client;

  /** The notification WebSockets open on an instance (its /metrics, with METRICS_TOKEN). */
  async function websockets(instance: Instance): Promise<number> {
    const answer = await fetch(`${instance.url}/metrics`, {
      headers: { authorization: `Bearer ${env.METRICS_TOKEN}` },
    }).catch(() => undefined);
    if (!answer?.ok) return -1;
    const match = /^ordering_websocket_connections (\d+)/m.exec(await answer.text());
    return match ? Number(match[1]) : -1;
  }

  async function openSocket(user: { token: string }): Promise<Socket> {
    const code = await api(haproxy!.url, 'POST', '/websocket-notifications/groups/', user);
    expect(code.status, code.text).toBe(201);
    const ws = new WebSocket(
      `${haproxy!.url.replace('http', 'ws')}/ws/notifications/?code=${code.body.code}`,
    );
    const messages: Socket['messages'] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    const closed = new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return { ws, messages, closed };
  }

  /** The instance holding the only notification WebSocket open in the fleet. */
  async function holder(): Promise<Instance> {
    let found: Instance | undefined;
    await until(async () => {
      const counts = await Promise.all(instances.map(websockets));
      const holders = instances.filter((_, i) => counts[i] === 1);
      found = holders.length === 1 && counts.every((n) => n <= 1) ? holders[0] : undefined;
      return found !== undefined;
    }, 'one instance reports the WebSocket');
    return found!;
  }

  async function statusIs(instance: Instance, status: string) {
    await until(
      async () => (await haproxy!.status())[instance.name] === status,
      `haproxy has ${instance.name} ${status}`,
      30_000,
      50,
    );
  }

  const inRotation = (instance: Instance) => statusIs(instance, 'UP');

  /** A cart of `who` checked out on `on` (an instance's own address): its id. */
  async function checkedOutOn(
    on: string,
    who: { token: string; upstreamToken: string },
    po: string,
  ) {
    const cart = await api(on, 'POST', '/carts/', who, {
      store: STORE,
      organization: 'ORG-1003',
      customer_order_number: po,
      order_mark: 'fleet',
    });
    expect(cart.status, cart.text).toBe(201);
    const item = await api(on, 'POST', '/items/', who, {
      cart: cart.body.id,
      part_number: '10001234',
      quantity: 1,
    });
    expect(item.status, item.text).toBe(201);
    const checkout = await api(on, 'PATCH', `/carts/${cart.body.id}/checkout/`, who);
    expect(checkout.status, checkout.text).toBe(200);
    return cart.body.id as number;
  }

  const heard = (socket: Socket, cart: number) =>
    socket.messages.some((m) => m.type === 'cart.checked_out' && m.data.cart === cart);

  async function allOutput(): Promise<string> {
    return instances
      .flatMap((i) =>
        i.history.map((p, n) => `--- ${i.name} #${n + 1}\n${p.output().slice(-1500)}`),
      )
      .join('\n');
  }

  describe.skipIf(missingFor(variant).length > 0 || (ONLY !== undefined && ONLY !== variant.key))(
    `a fleet from deploy/ (HAProxy, 3 instances) ${variant.title}`,
    () => {
      beforeAll(async () => {
        const admin = new pg.Client({ connectionString: ADMIN_URL });
        await admin.connect();
        const name = `fleet_${randomBytes(4).toString('hex')}`;
        await admin.query(`create database ${name}`);
        await admin.end();
        const url = new URL(ADMIN_URL);
        url.pathname = `/${name}`;
        database = { name, url: url.toString() };
        db = new pg.Client({ connectionString: database.url });
        await db.connect();

        // The way to PostgreSQL that the test cuts (PgBouncer's, or the instances').
        databaseProxy = await TcpProxy.start({
          host: url.hostname,
          port: Number(url.port || 5432),
        });
        const proxied = databaseProxy.urlFor(database.url);
        if (variant.pgbouncer) bouncer = await startPgBouncer(proxied);
        redis = new ThrowawayRedis(await freePort());
        await redis.start();
        ({ proc: sim, url: simUrl } = await startSimulatorProcess());
        for (let i = 1; i <= 3; i++) {
          const port = await freePort();
          instances.push({
            name: `app${i}`,
            port,
            url: `http://127.0.0.1:${port}`,
            proc: undefined,
            history: [],
          });
        }
        haproxy = await startHaProxy(Object.fromEntries(instances.map((i) => [i.name, i.port])));
        env = instanceEnv({
          HOST: '127.0.0.1',
          PORT: '0',
          DATABASE_URL: bouncer ? bouncer.urlFor(database.url) : proxied,
          // The example's value is `transaction` (PgBouncer); a direct fleet sets `none`.
          DATABASE_POOLER: variant.pgbouncer ? 'transaction' : 'none',
          DATABASE_MIGRATION_URL: database.url,
          REDIS_URL: redis.url,
          JWT_SECRET: randomBytes(32).toString('hex'),
          UPSTREAM_URL: simUrl,
          UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
          UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
          PUBLIC_URL: haproxy.url,
          METRICS_TOKEN: randomBytes(24).toString('hex'),
        });
        // The three start at once: they migrate the empty database together.
        const started = Date.now();
        await Promise.all(instances.map((instance) => startInstance(instance, env)));
        figures.startAllMs = Date.now() - started;
        // The demo stores, as an operator would create them.
        const seed = spawnProc(process.execPath, ['bin/ordering-admin.js', 'seed', 'demo'], {
          PATH: process.env.PATH,
          DATABASE_URL: database.url,
        });
        const [code] = await seed.exited;
        expect(code, seed.output()).toBe(0);
        for (const instance of instances) await inRotation(instance);
      }, 180_000);

      afterAll(async () => {
        allFigures[variant.key] = figures;
        console.log(`fleet figures (${variant.key}): ${JSON.stringify(figures, null, 2)}`);
        for (const instance of instances) instance.proc?.child.kill('SIGKILL');
        await Promise.all(instances.map((i) => i.proc?.exited));
        await haproxy?.stop();
        sim?.child.kill('SIGKILL');
        await redis?.stop();
        await bouncer?.stop();
        await databaseProxy?.close();
        await db?.end().catch(() => {});
        if (database) {
          const admin = new pg.Client({ connectionString: ADMIN_URL });
          await admin.connect();
          await admin.query(`drop database if exists ${database.name} with (force)`);
          await admin.end();
        }
      }, 60_000);

      it("runs the README's demo flow through HAProxy", async () => {
        const base = haproxy!.url;
        const session = await login(base, anne);
        anna = { ...session, organization: 'ORG-1001' };
        const cart = await api(base, 'POST', '/carts/', session, {
          store: STORE,
          organization: 'ORG-1001',
          customer_order_number: 'PO-4711',
          order_mark: 'Site B',
        });
        expect(cart.status, cart.text).toBe(201);
        const id = cart.body.id;
        const first = await api(base, 'POST', '/items/', session, {
          cart: id,
          part_number: '10001234',
          quantity: 2,
        });
        expect(first.status, first.text).toBe(201);
        const second = await api(base, 'POST', '/items/', session, {
          cart: id,
          part_number: '10001234',
          quantity: 3,
        });
        expect(second.status, second.text).toBe(201);
        expect(second.body.quantity).toBe(5);
        const checkout = await api(base, 'PATCH', `/carts/${id}/checkout/`, session);
        expect(checkout.status, checkout.text).toBe(200);
        const list = await api(base, 'GET', '/carts/?checkout=True', session);
        expect(list.status, list.text).toBe(200);
        const listed = list.body.results.find((c: { id: number }) => c.id === id);
        expect(listed).toBeDefined();
        const orders = await (await fetch(`${simUrl}/_sim/orders`)).json();
        expect(
          orders.filter((o: { order_id: string }) => o.order_id === checkout.body.order_id),
        ).toHaveLength(1);
        // The README's stats and series: through PgBouncer each is one call with its caller
        // (migration 0028), as production runs it.
        const stats = await api(base, 'GET', '/carts/stats/', session);
        expect(stats.status, stats.text).toBe(200);
        expect(stats.body.total_quantity).toBeGreaterThanOrEqual(5);
        const series = await api(
          base,
          'GET',
          '/carts/time-series/?interval=D&aggregate=items',
          session,
        );
        expect(series.status, series.text).toBe(200);
        // Buckets are UTC days of the carts' creation.
        const today = series.body.find(
          (b: { interval: string }) => b.interval.slice(0, 10) === cart.body.created.slice(0, 10),
        );
        expect(today?.total).toBeGreaterThanOrEqual(1);
      }, 60_000);

      it('survives a SIGKILL of one instance under load; its WebSocket client reconnects and hears another instance', async () => {
        const brunoSession = await login(haproxy!.url, bruno);
        const socket = await openSocket(brunoSession);
        const victim = await holder();
        const load = new Load(haproxy!.url, anna, STORE, 'kill');
        load.start(CLIENTS, 1);
        await until(() => load.tally.requests >= variant.load.beforeKill, 'load under way', 60_000);

        const killedAt = Date.now();
        victim.proc!.child.kill('SIGKILL');
        await until(
          async () => (await haproxy!.status())[victim.name]?.startsWith('DOWN') ?? false,
          `haproxy takes ${victim.name} out`,
          15_000,
          25,
        );
        figures.ejectMs = Date.now() - killedAt;
        expect(figures.ejectMs).toBeLessThan(5000);
        expect(await socket.closed).toBe(1006);

        // The client reconnects through HAProxy (to a live instance) and hears an event that
        // another live instance produces.
        const again = await openSocket(brunoSession);
        const live = instances.filter((i) => i !== victim);
        const host = await holder();
        const producer = live.find((i) => i !== host)!;
        const cart = await checkedOutOn(producer.url, brunoSession, 'WS-1');
        await until(
          () => heard(again, cart),
          'the reconnected client hears cart.checked_out from another instance',
        );
        figures.websocket = {
          killedInstance: victim.name,
          reconnectedTo: host.name,
          eventFrom: producer.name,
        };
        again.ws.close();

        // The killed instance comes back and rejoins while the load goes on.
        const atKill = load.tally.requests;
        await until(
          () => load.tally.requests >= atKill + variant.load.afterKill,
          'load goes on',
          60_000,
        );
        await startInstance(victim, env);
        await inRotation(victim);
        const tally = await load.stop();
        tallies.push(tally);
        figures.sigkill = {
          clients: CLIENTS,
          requests: tally.requests,
          failed: failedCount(tally),
          failuresByCause: Object.fromEntries(tally.failures),
          checkouts: tally.checkouts.size,
        };
        // At most the requests in flight on the killed instance are lost: one per client.
        expect(failedCount(tally), JSON.stringify([...tally.failures])).toBeLessThanOrEqual(
          CLIENTS,
        );
        await expectConsistent(tally);
      }, 180_000);

      it('rolls a restart through the fleet (SIGTERM each in turn under load) with zero failed requests', async () => {
        const load = new Load(haproxy!.url, anna, STORE, 'roll');
        load.start(CLIENTS, 100);
        await until(() => load.tally.requests >= variant.load.rollStart, 'load under way', 60_000);
        const restarts: Record<string, unknown>[] = [];
        for (const instance of instances) {
          const signalled = Date.now();
          instance.proc!.child.kill('SIGTERM');
          const [code] = await instance.proc!.exited;
          const exitedAfter = Date.now() - signalled;
          expect(code, instance.proc!.output().slice(-3000)).toBe(0);
          await startInstance(instance, env);
          await inRotation(instance);
          restarts.push({
            instance: instance.name,
            exitedAfterMs: exitedAfter,
            backInMs: Date.now() - signalled,
          });
          const now = load.tally.requests;
          await until(
            () => load.tally.requests >= now + variant.load.rollEach,
            'load goes on',
            60_000,
          );
        }
        const tally = await load.stop();
        tallies.push(tally);
        figures.rollingRestart = {
          clients: CLIENTS,
          requests: tally.requests,
          failed: failedCount(tally),
          failuresByCause: Object.fromEntries(tally.failures),
          checkouts: tally.checkouts.size,
          restarts,
        };
        expect([...tally.failures], await allOutput()).toEqual([]);
        await expectConsistent(tally);
      }, 240_000);

      it('keeps answering while Redis is down; notifications between instances resume when it returns', async () => {
        const brunoSession = await login(haproxy!.url, bruno);
        const socket = await openSocket(brunoSession);
        const host = await holder();
        const producer = instances.find((i) => i !== host)!;
        const load = new Load(haproxy!.url, anna, STORE, 'redis');
        load.start(CLIENTS, 200);
        await until(() => load.tally.requests >= 50, 'load under way', 60_000);

        await redis!.stop('SIGKILL');
        const downAt = Date.now();
        const atStop = load.tally.requests;
        await until(
          () => load.tally.requests >= atStop + variant.load.redis,
          'load goes on without Redis',
          60_000,
        );
        // A login (its rate limit counts in each instance meanwhile) and a checkout on another
        // instance than the WebSocket's still answer.
        await login(haproxy!.url, bruno);
        await checkedOutOn(producer.url, brunoSession, 'REDIS-DOWN');

        const whileDown = load.tally.requests - atStop;
        await redis!.start();
        const backAt = Date.now();
        // Checkouts on the other instance until one reaches the WebSocket through Redis.
        const probes: number[] = [];
        await until(
          async () => {
            probes.push(await checkedOutOn(producer.url, brunoSession, `REDIS-${probes.length}`));
            return probes.some((cart) => heard(socket, cart));
          },
          'notifications between instances resume after Redis returns',
          30_000,
          100,
        );
        const fanOutBackMs = Date.now() - backAt;
        socket.ws.close();
        const tally = await load.stop();
        tallies.push(tally);
        figures.redisOutage = {
          requests: tally.requests,
          requestsWhileDown: whileDown,
          downForMs: backAt - downAt,
          failed: failedCount(tally),
          failuresByCause: Object.fromEntries(tally.failures),
          fanOutBackMs,
          probes: probes.length,
        };
        expect([...tally.failures], await allOutput()).toEqual([]);
        await expectConsistent(tally);
      }, 120_000);

      it('with the database cut every instance leaves rotation and HAProxy answers its JSON 503; all come back by themselves', async () => {
        const session = await login(haproxy!.url, anne);
        const cutAt = Date.now();
        databaseProxy!.refuse();
        await until(
          async () => Object.values(await haproxy!.status()).every((s) => s.startsWith('DOWN')),
          'haproxy has every instance DOWN',
          30_000,
          50,
        );
        const allOutMs = Date.now() - cutAt;
        const answer = await api(haproxy!.url, 'GET', '/carts/', session);
        expect(answer.status, answer.text).toBe(503);
        expect(answer.headers.get('content-type')).toBe('application/json');
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(answer.body).toEqual({ detail: expect.any(String), code: 'service_unavailable' });

        const restoredAt = Date.now();
        databaseProxy!.restore();
        for (const instance of instances) await inRotation(instance);
        const allBackMs = Date.now() - restoredAt;
        const after = await api(haproxy!.url, 'GET', '/carts/', session);
        expect(after.status, after.text).toBe(200);
        figures.databaseCut = { allOutMs, allBackMs };
      }, 120_000);

      it('holds the per-minute login limit across the three instances (Redis counts for all): per account and per address', async () => {
        const limit = Number(env.AUTH_RATE_LIMIT_PER_MINUTE ?? 10);
        const LOGIN = '/api/v1/auth/jwt/token/';
        /** Each instance's answers to logins by status, from its own /metrics. */
        const loginAnswers = () =>
          Promise.all(
            instances.map(async (instance) => {
              const text = await (
                await fetch(`${instance.url}/metrics`, {
                  headers: { authorization: `Bearer ${env.METRICS_TOKEN}` },
                })
              ).text();
              const count = (status: string) =>
                sample(text, 'ordering_http_request_duration_seconds_count', {
                  method: 'POST',
                  route: LOGIN,
                  status_code: status,
                }) ?? 0;
              return { wrong: count('400'), refused: count('429') };
            }),
          );
        /**
         * A wrong login through HAProxy from a loopback address of its own (HAProxy passes
         * the address it saw; the instances trust that one hop): a new connection each, so
         * round-robin spreads them.
         */
        const attempt = async (from: string, username: string) => {
          const agent = new Agent({ localAddress: from });
          try {
            const answer = await fetchFrom(`${haproxy!.url}${LOGIN}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ username, password: 'not-the-password' }),
              dispatcher: agent,
            });
            const body = (await answer.json()) as { code?: string };
            return answer.status === 429 ? `429 ${body.code}` : String(answer.status);
          } finally {
            await agent.close();
          }
        };
        /** Starts in a minute with 15 s left at least: the attempts share one window. */
        const freshMinute = () =>
          until(() => Date.now() % 60_000 < 45_000, 'a minute with time left', 20_000, 200);
        const expected = [...Array(limit).fill('400'), ...Array(limit).fill('429 throttled')];

        const before = await loginAnswers();
        const started = Date.now();
        // One account from 2 × limit addresses.
        const account = `fleet-limit-${randomBytes(4).toString('hex')}`;
        await freshMinute();
        const perAccount: string[] = [];
        for (let i = 1; i <= 2 * limit; i++)
          perAccount.push(await attempt(`127.0.3.${i}`, account));
        // One address, 2 × limit accounts.
        await freshMinute();
        const perAddress: string[] = [];
        for (let i = 1; i <= 2 * limit; i++) {
          perAddress.push(await attempt('127.0.4.1', `${account}-${i}`));
        }
        const after = await loginAnswers();
        expect(perAccount).toEqual(expected);
        expect(perAddress).toEqual(expected);
        // Each instance answered some of the wrong logins and refused some of the rest: the
        // limit is the fleet's, not each instance's (per instance, all 4 × limit would be 400).
        const moved = after.map((a, i) => ({
          wrong: a.wrong - before[i].wrong,
          refused: a.refused - before[i].refused,
        }));
        expect(moved.reduce((sum, m) => sum + m.wrong, 0)).toBe(2 * limit);
        expect(moved.reduce((sum, m) => sum + m.refused, 0)).toBe(2 * limit);
        for (const m of moved) {
          expect(m.wrong).toBeGreaterThan(0);
          expect(m.refused).toBeGreaterThan(0);
        }
        figures.loginLimit = { limit, perInstance: moved, ms: Date.now() - started };
      }, 120_000);

      /** The load's writes against the database and the ERP (./consistency.ts). */
      async function expectConsistent(tally: Tally): Promise<void> {
        figures[`consistency${tallies.length}`] = await checkConsistent(db, simUrl, tally);
      }
    },
  );
}
