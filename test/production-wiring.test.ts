import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT, DEMO_STORE_GLNS, demoData } from '../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../erp-simulator/server.js';
import { createPostgresDatabase } from './helpers/db.js';
import { sample } from './helpers/metrics.js';
import { freePort, runProcess, startServiceProcess } from './helpers/process.js';
import { until } from './helpers/wait.js';
import { codeIn, type SmtpReceiver, startSmtpReceiver } from './mail/smtp.js';
import {
  type Client,
  type Message,
  open,
  refused,
  TIMESTAMP,
  wsUrl,
} from './notifications/client.js';

/**
 * The rule of this file: every seam the other tests replace (random source, clock,
 * notifier, mailer, upstream) runs here once as `npm start` wires it. The service is its
 * own process, started as `npm start` starts it, configured only through the environment
 * (NODE_ENV=production), and talked to over HTTP and WebSocket only:
 * - random source and clock: the real ones (`secureRandom`, `systemClock`);
 * - notifier: in-process, or through Redis when TEST_REDIS_URL is set;
 * - mailer: SMTP, to a real SMTP server in this process;
 * - upstream: an ERP at UPSTREAM_URL, as production requires (the simulator, started by
 *   this test as an ERP would run elsewhere, with its demo data; the demo stores seeded
 *   with the admin command `seed demo`, as an operator would);
 * - database: an empty PostgreSQL database when TEST_DATABASE_URL is set, else the
 *   embedded one in a DATA_DIR; the service migrates it on start.
 */

const DEMO_USERS = demoData().users;
const ANNA = DEMO_USERS.find((u) => u.username === 'anna')!;
const CARLA = DEMO_USERS.find((u) => u.username === 'carla')!; // the demo admin
// Trade store Hannover-Linden: carts_for_random_control = 1 in the demo data, under the
// demo option criteria_for_random_controls = carts, so every checkout there draws.
const N1_STORE = DEMO_STORE_GLNS[2];

/** Every setting of docs/operations.md: none leaks in from the environment the tests run in. */
const SETTINGS = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATA_DIR',
  'REDIS_URL',
  'UPSTREAM_URL',
  'UPSTREAM_ADMIN_USERNAME',
  'UPSTREAM_ADMIN_PASSWORD',
  'UPSTREAM_TIMEOUT_MS',
  'JWT_SECRET',
  'JWT_TTL_SECONDS',
  'JWT_REFRESH_WINDOW_SECONDS',
  'PUBLIC_URL',
  'SMTP_URL',
  'MAIL_FROM',
  'RESTORE_CODE_TTL_SECONDS',
  'RESTORE_CODES_PER_DAY',
  'RESTORE_ATTEMPTS_PER_DAY',
  'WS_CODE_TTL_SECONDS',
  'WS_MAX_PER_USER',
  'WS_MAX_CONNECTIONS',
  'WS_ALLOWED_ORIGINS',
  'WS_HEARTBEAT_SECONDS',
  'AUTH_RATE_LIMIT_PER_MINUTE',
  'AUTH_FAILURES_PER_DAY',
  'AUTH_ACCOUNT_FAILURES_PER_DAY',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'NODE_ENV',
  'METRICS_TOKEN',
  'METRICS_PORT',
];

let child: ChildProcess | undefined;
let smtp: SmtpReceiver | undefined;
let sim: Simulator | undefined;
let socket: Client | undefined;
let dataDir: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

afterAll(async () => {
  socket?.close();
  if (child && child.exitCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  await smtp?.close();
  await sim?.close();
  await dropDatabase?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A message of `type` that `match` accepts; others are skipped (a shared Redis may carry them). */
async function nextOf(
  client: Client,
  type: string,
  match: (message: Message) => boolean,
  deadline: number,
): Promise<Message> {
  for (;;) {
    const message = await client.next(Math.max(1, deadline - Date.now()));
    if (message.type === type && match(message)) return message;
  }
}

const micros = (timestamp: string) =>
  Date.parse(timestamp.slice(0, 23) + timestamp.slice(26)) * 1000 + Number(timestamp.slice(23, 26));

describe('the service as `npm start` wires it (no seam replaced)', () => {
  it('draws a random control with the real random source, notifies over the real notifier, stamps the real time and mails over SMTP', async () => {
    const started = Date.now();
    smtp = await startSmtpReceiver();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const metricsPort = await freePort();
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of SETTINGS) delete env[name];
    Object.assign(env, {
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(24).toString('hex'),
      HOST: '127.0.0.1',
      PORT: String(port),
      SMTP_URL: smtp.url,
      PUBLIC_URL: url,
      MAIL_FROM: 'Ordering <ordering@example.com>',
      LOG_LEVEL: 'info',
      METRICS_PORT: String(metricsPort),
    });
    if (process.env.TEST_DATABASE_URL) {
      // An empty database on the test server: the service migrates it.
      const database = await createPostgresDatabase({ empty: true });
      dropDatabase = database.drop;
      env.DATABASE_URL = database.url;
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'ordering-wiring-'));
      env.DATA_DIR = dataDir;
    }
    if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;
    sim = await startSimulator();
    Object.assign(env, {
      UPSTREAM_URL: sim.url,
      UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
      UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
    });
    const seeded = await runProcess(process.execPath, ['bin/ordering-admin.js', 'seed', 'demo'], {
      env,
    });
    expect(seeded.code, seeded.stderr).toBe(0);

    // `npm start` is `node dist/src/main.js`.
    const service = await startServiceProcess(env, port, '/readyz');
    child = service.child;
    const { exited } = service;
    // The start line with the upstream comes just after listening: wait for it, not a race.
    await until(() => service.output().includes(sim!.url), 'the ERP address is named');
    expect(service.output()).not.toContain('simulator');

    const call = async (method: string, path: string, token?: string, body?: unknown) => {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      // biome-ignore lint/suspicious/noExplicitAny: the test reads the fields it checks
      return { status: response.status, text, body: (text ? JSON.parse(text) : undefined) as any };
    };
    const login = async (username: string, password: string) => {
      const answer = await call('POST', '/api/v1/auth/jwt/token/', undefined, {
        username,
        password,
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.token as string;
    };
    /** Within the test's run, by the system clock (the service stamps with its own). */
    const recent = (timestamp: string) => {
      expect(timestamp).toMatch(TIMESTAMP);
      expect(micros(timestamp)).toBeGreaterThanOrEqual((started - 1000) * 1000);
      expect(micros(timestamp)).toBeLessThanOrEqual((Date.now() + 1000) * 1000);
    };

    // Upstream (the ERP at UPSTREAM_URL) and the clock: a token issued now.
    const anna = await login(ANNA.username, ANNA.password);
    const claims = JSON.parse(Buffer.from(anna.split('.')[1], 'base64url').toString());
    expect(claims.iat * 1000).toBeGreaterThanOrEqual(started - 1000);
    expect(claims.iat * 1000).toBeLessThanOrEqual(Date.now() + 1000);

    // The notifier: anna listens before she checks out.
    const group = await call('POST', '/api/v1/websocket-notifications/groups/', anna);
    expect(group.status, group.text).toBe(201);
    // A page of another site cannot open it (the code is not spent); PUBLIC_URL's origin can.
    const crossSite = await refused(wsUrl(url, group.body.code), {
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe('origin_not_allowed');
    socket = await open(wsUrl(url, group.body.code), { origin: new URL(url).origin });

    const organizations = await call('GET', '/api/v1/organizations/', anna);
    expect(organizations.status, organizations.text).toBe(200);
    const organization = organizations.body.results[0].organization_id;
    const cart = await call('POST', '/api/v1/carts/', anna, {
      store: N1_STORE,
      organization,
      customer_order_number: 'PO-WIRING',
      order_mark: '',
    });
    expect(cart.status, cart.text).toBe(201);
    recent(cart.body.created);
    const item = await call('POST', '/api/v1/items/', anna, {
      cart: cart.body.id,
      part_number: '10001234',
      quantity: 2,
    });
    expect(item.status, item.text).toBe(201);
    const checkout = await call('PATCH', `/api/v1/carts/${cart.body.id}/checkout/`, anna);
    expect(checkout.status, checkout.text).toBe(200);
    recent(checkout.body.created);

    // The random source: N = 1 always draws, so the cart carries a random control.
    const listed = await call('GET', '/api/v1/carts/?page_size=100', anna);
    expect(listed.status, listed.text).toBe(200);
    const mine = listed.body.results.find((c: { id: number }) => c.id === cart.body.id);
    expect(mine.controls, service.output()).toHaveLength(1);
    const [controlId] = mine.controls;
    const carla = await login(CARLA.username, CARLA.password);
    const controls = await call('GET', '/api/v1/controls/?is_random=True&page_size=100', carla);
    expect(controls.status, controls.text).toBe(200);
    const control = controls.body.results.find((c: { id: number }) => c.id === controlId);
    expect(control).toMatchObject({ is_random: true, status: 'pending', verified_at: null });
    recent(control.created);
    expect(service.output()).not.toContain('random control draw failed');

    // ...and anna heard of it over her WebSocket.
    const deadline = Date.now() + 5000;
    const message = await nextOf(
      socket,
      'control.created',
      (m) => m.data.control?.id === controlId && m.data.control.carts?.includes(cart.body.id),
      deadline,
    );
    expect(message.data.control.is_random).toBe(true);
    recent(message.created);

    // Metrics, scraped as Prometheus would on the metrics port (not on the service's).
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    const metrics = await scraped.text();
    expect(sample(metrics, 'ordering_checkouts_total', { outcome: 'placed' })).toBe(1);
    expect(sample(metrics, 'ordering_random_controls_drawn_total')).toBe(1);
    expect(sample(metrics, 'ordering_websocket_connections')).toBe(1);
    expect(
      sample(metrics, 'ordering_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/items/',
        status_code: '201',
      }),
    ).toBe(1);
    expect(
      sample(metrics, 'ordering_upstream_call_duration_seconds_count', {
        kind: 'orders',
        outcome: '2xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(metrics, 'ordering_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(metrics, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect((await call('GET', '/metrics')).status).toBe(404);

    // The mailer: a restore code goes out over SMTP, and it sets the password upstream.
    const request = await call('POST', '/api/v1/request-restore-code/', undefined, {
      username: ANNA.username,
    });
    expect(request.status, request.text).toBe(202);
    const mail = await smtp.next(ANNA.email, 0, 10_000);
    expect(mail.from).toBe('ordering@example.com');
    const code = codeIn(mail);
    expect(code).toMatch(/^\d{6}$/);
    const restored = await call('POST', '/api/v1/restore-password/', undefined, {
      username: ANNA.username,
      code,
      password: 'anna-restored-2026',
    });
    expect(restored.status, restored.text).toBe(202);
    // The reset ended anna's sessions: her socket of the old session is closed (4401).
    expect(await socket.closed).toBe(4401);
    const renewed = await login(ANNA.username, 'anna-restored-2026');
    const again = await call('POST', '/api/v1/websocket-notifications/groups/', renewed);
    expect(again.status, again.text).toBe(201);
    socket = await open(wsUrl(url, again.body.code));

    // And it stops as deployed: SIGTERM, WebSockets closed with 1001, exit 0.
    child.kill('SIGTERM');
    expect(await socket.closed).toBe(1001);
    const [exitCode] = await exited;
    expect(exitCode, service.output()).toBe(0);
    // Production logs are JSON lines, one object a line, and nothing else.
    const lines = service.output().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
