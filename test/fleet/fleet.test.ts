import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../../erp-simulator/data.js';
import { type PgBouncer, pgbouncerInstalled, startPgBouncer } from '../helpers/pgbouncer.js';
import { freePort } from '../helpers/process.js';
import { redisServerAvailable, ThrowawayRedis } from '../helpers/redis-server.js';
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
} from './cluster.js';
import { failedCount, Load, type Tally, type User } from './load.js';

/**
 * Issue 18: a fleet as an operator runs it, from the files in deploy/ — HAProxy
 * (deploy/haproxy/haproxy.cfg) in front of three instances started with `npm start`'s
 * command and deploy/fleet/instance.env.example, through PgBouncer in transaction mode
 * (deploy/pgbouncer/pgbouncer.ini) to a fresh database on the PostgreSQL server, a
 * redis-server of its own, the ERP simulator as a process of its own. Each file is changed
 * only for ports, paths, addresses and secrets. `npm run test:fleet`; prints its figures.
 */

const ADMIN_URL =
  process.env.FLEET_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const CLIENTS = Number(process.env.FLEET_CLIENTS ?? 8);
const STORE = '4012345000009';

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

const missing = [
  haproxyInstalled ? '' : 'haproxy',
  pgbouncerInstalled ? '' : 'pgbouncer',
  redisServerAvailable ? '' : 'redis-server',
  (await postgresReachable()) ? '' : `PostgreSQL at ${new URL(ADMIN_URL).host}`,
].filter(Boolean);
if (missing.length > 0) {
  console.log(
    `fleet test skipped: ${missing.join(', ')} missing (apt-get install -y haproxy pgbouncer redis-server; .ci/run installs them)`,
  );
}

const figures: Record<string, unknown> = {};
let database: { name: string; url: string } | undefined;
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
  return { status: answer.status, text, body: text ? JSON.parse(text) : undefined };
}

/** The notification WebSockets open on an instance (its /metrics, with METRICS_TOKEN). */
async function websockets(instance: Instance): Promise<number> {
  const answer = await fetch(`${instance.url}/metrics`, {
    headers: { authorization: `Bearer ${env.METRICS_TOKEN}` },
  }).catch(() => undefined);
  if (!answer?.ok) return -1;
  const match = /^ordering_websocket_connections (\d+)/m.exec(await answer.text());
  return match ? Number(match[1]) : -1;
}

interface Socket {
  ws: WebSocket;
  messages: { type: string; data: { cart: number } }[];
  closed: Promise<number>;
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
    found = holders.length === 1 ? holders[0] : undefined;
    return found !== undefined;
  }, 'one instance reports the WebSocket');
  return found!;
}

async function inRotation(instance: Instance) {
  await until(
    async () => (await haproxy!.status())[instance.name] === 'UP',
    `haproxy has ${instance.name} UP`,
    30_000,
    50,
  );
}

async function allOutput(): Promise<string> {
  return instances
    .flatMap((i) => i.history.map((p, n) => `--- ${i.name} #${n + 1}\n${p.output().slice(-1500)}`))
    .join('\n');
}

describe.skipIf(missing.length > 0)(
  'a fleet from deploy/ (HAProxy, PgBouncer, 3 instances)',
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

      bouncer = await startPgBouncer(database.url);
      redis = new ThrowawayRedis(await freePort());
      await redis.start();
      const simPort = await freePort();
      sim = spawnProc(process.execPath, ['dist/erp-simulator/main.js'], {
        PATH: process.env.PATH,
        PORT: String(simPort),
      });
      simUrl = `http://127.0.0.1:${simPort}`;
      await until(
        () =>
          fetch(`${simUrl}/_sim/orders`).then(
            (r) => r.ok,
            () => false,
          ),
        'the ERP simulator answers',
      );
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
        DATABASE_URL: bouncer.urlFor(database.url),
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
      console.log(`fleet figures: ${JSON.stringify(figures, null, 2)}`);
      for (const instance of instances) instance.proc?.child.kill('SIGKILL');
      await Promise.all(instances.map((i) => i.proc?.exited));
      await haproxy?.stop();
      sim?.child.kill('SIGKILL');
      await redis?.stop();
      await bouncer?.stop();
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
    }, 60_000);

    it('survives a SIGKILL of one instance under load; its WebSocket client reconnects and hears another instance', async () => {
      const brunoSession = await login(haproxy!.url, bruno);
      const socket = await openSocket(brunoSession);
      const victim = await holder();
      const load = new Load(haproxy!.url, anna, STORE, 'kill');
      load.start(CLIENTS, 1);
      await until(() => load.tally.requests >= 300, 'load under way', 60_000);

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
      const cart = await api(producer.url, 'POST', '/carts/', brunoSession, {
        store: STORE,
        organization: 'ORG-1003',
        customer_order_number: 'WS-1',
        order_mark: 'fleet',
      });
      expect(cart.status, cart.text).toBe(201);
      const item = await api(producer.url, 'POST', '/items/', brunoSession, {
        cart: cart.body.id,
        part_number: '10001234',
        quantity: 1,
      });
      expect(item.status, item.text).toBe(201);
      const checkout = await api(producer.url, 'PATCH', `/carts/${cart.body.id}/checkout/`, {
        ...brunoSession,
      });
      expect(checkout.status, checkout.text).toBe(200);
      await until(
        () =>
          again.messages.some((m) => m.type === 'cart.checked_out' && m.data.cart === cart.body.id),
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
      await until(() => load.tally.requests >= atKill + 200, 'load goes on', 60_000);
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
      expect(failedCount(tally), JSON.stringify([...tally.failures])).toBeLessThanOrEqual(CLIENTS);
      await expectConsistent(tally);
    }, 180_000);

    it('rolls a restart through the fleet (SIGTERM each in turn under load) with zero failed requests', async () => {
      const load = new Load(haproxy!.url, anna, STORE, 'roll');
      load.start(CLIENTS, 100);
      await until(() => load.tally.requests >= 200, 'load under way', 60_000);
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
        await until(() => load.tally.requests >= now + 100, 'load goes on', 60_000);
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
  },
);

/**
 * Every acknowledged add is stored exactly once (a line holds its acknowledged quantity
 * plus at most the adds whose outcome is unknown); every 200 checkout is one order upstream
 * and one record; no cart has two orders.
 */
async function expectConsistent(tally: Tally): Promise<void> {
  const carts = [
    ...new Set([...tally.acked.keys(), ...tally.unknown.keys(), ...tally.checkouts.keys()]),
  ];
  const { rows } = await db.query<{ cart_id: number; part_number: string; quantity: number }>(
    'select cart_id, part_number, quantity from items where cart_id = any($1)',
    [carts],
  );
  const stored = new Map(rows.map((r) => [`${r.cart_id}/${r.part_number}`, r.quantity]));
  let exact = 0;
  for (const cart of carts) {
    const parts = new Set([
      ...(tally.acked.get(cart)?.keys() ?? []),
      ...(tally.unknown.get(cart)?.keys() ?? []),
    ]);
    for (const part of parts) {
      const acked = tally.acked.get(cart)?.get(part) ?? 0;
      const unknown = tally.unknown.get(cart)?.get(part) ?? 0;
      const quantity = stored.get(`${cart}/${part}`) ?? 0;
      if (unknown === 0) {
        expect(quantity, `cart ${cart} part ${part}`).toBe(acked);
        exact++;
      } else {
        expect(quantity).toBeGreaterThanOrEqual(acked);
        expect(quantity).toBeLessThanOrEqual(acked + unknown);
      }
    }
  }
  const orders: { order_id: string; idempotency_key: string }[] = await (
    await fetch(`${simUrl}/_sim/orders`)
  ).json();
  const ordersOf = new Map<number, string[]>();
  for (const order of orders) {
    const cart = Number(/^cart-(\d+)-/.exec(order.idempotency_key)?.[1]);
    ordersOf.set(cart, [...(ordersOf.get(cart) ?? []), order.order_id]);
  }
  for (const [cart, ids] of ordersOf) expect(ids, `orders of cart ${cart}`).toHaveLength(1);
  const records = await db.query<{ cart_id: number; order_id: string }>(
    'select cart_id, order_id from checkouts where cart_id = any($1)',
    [carts],
  );
  const recordOf = new Map(records.rows.map((r) => [r.cart_id, r.order_id]));
  for (const [cart, orderId] of tally.checkouts) {
    expect(ordersOf.get(cart), `cart ${cart}`).toEqual([orderId]);
    expect(recordOf.get(cart), `cart ${cart}`).toBe(orderId);
  }
  const acknowledged = [...tally.acked.values()].reduce(
    (sum, lines) => sum + [...lines.values()].reduce((a, b) => a + b, 0),
    0,
  );
  figures[`consistency${tallies.length}`] = {
    acknowledgedQuantity: acknowledged,
    linesCheckedExactly: exact,
    checkoutsWithOneOrderAndOneRecord: tally.checkouts.size,
    uncertainCheckouts: tally.uncertainCheckouts.size,
  };
}
