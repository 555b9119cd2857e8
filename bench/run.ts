/**
 * `npm run bench`: throughput and latency of the hot paths, measured with autocannon against
 * the real app on a local port (embedded database, or BENCH_DATABASE_URL for PostgreSQL).
 * Server and load share the machine: compare runs on the same machine only.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { DEMO_SERVICE_ACCOUNT, DEMO_STORE_GLNS, DEMO_USERS } from '../erp-simulator/data.js';
import { startSimulator } from '../erp-simulator/server.js';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { stores } from '../src/db/schema.js';
import { UpstreamClient } from '../src/upstream/client.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function main(): Promise<void> {
  const sim = await startSimulator();
  const server = process.env.BENCH_DATABASE_URL;
  // A database of its own on that server, dropped afterwards: the bench writes rows.
  const scratch = server ? await createScratchDatabase(server) : undefined;
  const database = await openDatabase(scratch ? { url: scratch.url, poolSize: 20 } : {});
  await database.migrate();
  const config = loadConfig({
    DATABASE_URL: 'memory://',
    JWT_SECRET: 'bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
    UPSTREAM_URL: sim.url,
    UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
    UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
  });
  const upstream = new UpstreamClient({
    url: sim.url,
    timeoutMs: 10_000,
    serviceAccount: DEMO_SERVICE_ACCOUNT,
  });
  const app = await buildApp(
    { config, database, upstream, clock: systemClock, random: Math.random },
    { logger: false },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  await database.db
    .insert(stores)
    .values({ gln: DEMO_STORE_GLNS[0], name: 'Bench store', created: new Date().toISOString() })
    .onConflictDoNothing();

  const anna = DEMO_USERS.find((u) => u.username === 'anna')!;
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(base + path, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json() as Promise<any>;
  };
  const { token } = await call('POST', '/api/v1/auth/jwt/token/', {
    username: anna.username,
    password: anna.password,
  });
  let cartId = 0;
  for (let c = 0; c < 20; c++) {
    const cart = await call(
      'POST',
      '/api/v1/carts/',
      {
        store: DEMO_STORE_GLNS[0],
        organization: 'ORG-1001',
        customer_order_number: `B-${c}`,
        order_mark: '',
      },
      token,
    );
    cartId = cart.id;
    for (let i = 0; i < 10; i++)
      await call(
        'POST',
        '/api/v1/items/',
        { cart: cart.id, part_number: `P-${i}`, quantity: 1 },
        token,
      );
  }
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const scenarios = [
    { name: 'GET /healthz', path: '/healthz', method: 'GET' as const },
    {
      name: 'GET carts/ (20 carts x 10 items)',
      path: '/api/v1/carts/',
      method: 'GET' as const,
      headers: auth,
    },
    {
      name: 'GET carts/stats/',
      path: '/api/v1/carts/stats/',
      method: 'GET' as const,
      headers: auth,
    },
    {
      name: 'POST items/ (merge into one line)',
      path: '/api/v1/items/',
      method: 'POST' as const,
      headers: auth,
      body: JSON.stringify({ cart: cartId, part_number: 'HOT', quantity: 1 }),
    },
  ];
  console.log(`database: ${database.kind}; ${CONNECTIONS} connections, ${DURATION} s each\n`);
  console.log('| scenario | req/s (mean) | p50 ms | p99 ms | errors/non-2xx |');
  console.log('|---|---|---|---|---|');
  for (const s of scenarios) {
    const result = await autocannon({
      url: base + s.path,
      method: s.method,
      headers: s.headers,
      body: s.body,
      connections: CONNECTIONS,
      duration: DURATION,
    });
    console.log(
      `| ${s.name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.errors}/${result.non2xx} |`,
    );
  }
  await app.close();
  await upstream.close();
  await sim.close();
  await database.close();
  await scratch?.drop();
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
  process.exit(1);
});
