import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../../erp-simulator/server.js';
import { createPostgresDatabase, migratedDataDir } from '../helpers/db.js';
import { OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import {
  freePort,
  runProcess,
  type ServiceProcess,
  startServiceProcess,
} from '../helpers/process.js';

/**
 * Tracing (issue 31; docs/operations.md "Tracing"), end to end: the service started as
 * `npm start` starts it (`node dist/src/main.js`, a child process) with the standard OTEL_*
 * variables, exporting OTLP/HTTP to a receiver in this process; the admin command too.
 */
const ANNA = DEMO_USERS.find((u) => u.username === 'anna')!;
const STORE = '4012345000009';
const PART = '10001234';
const SECRET_KEY =
  /pass|secret|token|authorization|cookie|mail|phone|username|client\.address|user_agent|url\.(full|path|query)/i;
const SPAN_KIND_CLIENT = 3;
const STATUS_ERROR = 2;

let receiver: OtlpReceiver;
let sim: Simulator;
let service: ServiceProcess;
let dataDir: string;
/** With TEST_DATABASE_URL: a database of its own on the server (statements: pg's spans). */
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
const secrets: string[] = [ANNA.password, ANNA.username, DEMO_SERVICE_ACCOUNT.password];

function otelEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    // With TEST_REDIS_URL the fan-out publishes through Redis (ioredis's span).
    ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    UPSTREAM_URL: sim.url,
    UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
    UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: 'ordering-test',
    // The scheduled retention runs every second (it removes nothing of this test's).
    RETENTION_DAYS: '400',
    RETENTION_INTERVAL_SECONDS: '1',
    // Batches sent every 50 ms: the test waits for spans, not for the default 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '50',
  };
}

beforeAll(async () => {
  receiver = await new OtlpReceiver().start();
  sim = await startSimulator();
  dataDir = migratedDataDir();
  if (process.env.TEST_DATABASE_URL) {
    const database = await createPostgresDatabase({ empty: true });
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  // The admin command's job, traced as well: the demo stores.
  const seeded = await runProcess(
    process.execPath,
    ['bin/ordering-admin.js', 'seed', 'demo', '--no-carts'],
    { env: otelEnv() },
  );
  expect(seeded.code, seeded.stderr).toBe(0);
  service = await startServiceProcess(otelEnv(), await freePort(), '/readyz');
}, 60_000);

afterAll(async () => {
  service?.child.kill('SIGKILL');
  await service?.exited;
  await sim?.close();
  await receiver?.close();
  await dropDatabase?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function call(
  method: string,
  path: string,
  options: {
    token?: string;
    upstream?: string;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.upstream) headers['authorization-upstream'] = `Bearer ${options.upstream}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${service.url}/api/v1${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A cart with one scanned line, checked out; the HTTP span of the checkout. */
async function checkout(token: string, upstream: string) {
  const cart = await call('POST', '/carts/', {
    token,
    body: {
      store: STORE,
      organization: 'ORG-1001',
      customer_order_number: 'PO-1',
      order_mark: 'Site B',
    },
  });
  expect(cart.status, JSON.stringify(cart.body)).toBe(201);
  const item = await call('POST', '/items/', {
    token,
    body: { cart: cart.body.id, part_number: PART, quantity: 2 },
  });
  expect(item.status).toBe(201);
  return call('PATCH', `/carts/${cart.body.id}/checkout/`, { token, upstream });
}

const CHECKOUT_ROUTE = 'PATCH /api/v1/carts/:id/checkout/';
const under = (span: ReceivedSpan, root: ReceivedSpan) =>
  receiver.ancestors(span).some((a) => a.spanId === root.spanId);

describe('tracing (OTEL_* set), the service as npm start runs it', { timeout: 60_000 }, () => {
  let token: string;
  let upstream: string;

  it('traces a checkout: HTTP → claim → ERP orders → record → publish, linked and timed', async () => {
    const login = await call('POST', '/auth/jwt/token/', {
      body: { username: ANNA.username, password: ANNA.password },
    });
    expect(login.status).toBe(200);
    token = login.body.token;
    upstream = login.body.upstream_token;
    secrets.push(token, upstream, login.body.refresh ?? token);

    // Anna listens: the checkout's fan-out reaches her socket.
    const code = (await call('POST', '/websocket-notifications/groups/', { token })).body.code;
    secrets.push(code);
    const socket = new WebSocket(
      `${service.url.replace('http', 'ws')}/ws/notifications/?code=${code}`,
    );
    const heard = new Promise<string>((resolve) =>
      socket.once('message', (m) => resolve(String(m))),
    );
    await new Promise((resolve) => socket.once('open', resolve));

    expect((await call('GET', `/products/${PART}/`, { token, upstream })).status).toBe(200);
    const done = await checkout(token, upstream);
    expect(done.status).toBe(200);
    expect(await heard).toContain('cart.checked_out');
    socket.close();

    const http = await receiver.waitFor((s) => s.name === CHECKOUT_ROUTE);
    expect(http.attributes['http.route']).toBe('/api/v1/carts/:id/checkout/');
    expect(http.attributes['http.response.status_code']).toBe(200);
    expect(http.resource['service.name']).toBe('ordering-test');
    const notify = await receiver.waitFor(
      (s) => s.name === 'notify cart.checked_out' && s.traceId === http.traceId,
    );
    const inTrace = (name: string) =>
      receiver.spans.find((s) => s.traceId === http.traceId && s.name === name);
    const steps = [
      'checkout claim',
      'ERP orders',
      'checkout record',
      'notify cart.checked_out',
    ].map((name) => {
      const span = inTrace(name);
      expect(span, name).toBeDefined();
      return span!;
    });
    expect(steps.at(-1)).toBe(notify);
    for (const [i, step] of steps.entries()) {
      // Each a descendant of the HTTP span, within its time, after the step before it.
      expect(under(step, http), step.name).toBe(true);
      expect(step.end).toBeGreaterThan(step.start);
      expect(step.start).toBeGreaterThanOrEqual(http.start);
      expect(step.end).toBeLessThanOrEqual(http.end);
      // (Span clocks may differ by under a millisecond.)
      if (i > 0) expect(step.start + 1_000_000n).toBeGreaterThanOrEqual(steps[i - 1]!.end);
    }
    // The claim's statement: the service's span on the embedded database, pg's on the server.
    const statement = databaseUrl ? 'pg.query:' : 'db ';
    const claimed = receiver.spans.filter(
      (s) => s.name.startsWith(statement) && under(s, steps[0]!),
    );
    expect(claimed.length).toBeGreaterThan(0);
    expect(claimed[0]!.attributes['db.query.text']).toMatch(/checkout_claim\(\$1/);
    if (process.env.TEST_REDIS_URL) {
      const publish = await receiver.waitFor(
        (s) => s.name === 'publish' && s.parentSpanId === notify.spanId,
      );
      expect(publish.attributes['db.query.text'] ?? publish.attributes['db.statement']).toBe(
        'publish',
      );
    }
    // ERP orders: route and status; under it undici's client span, whose context the ERP got.
    const erp = steps[1]!;
    expect(erp.attributes).toMatchObject({
      'erp.route': 'orders',
      'erp.attempt': 1,
      'http.response.status_code': 201,
    });
    const sent = receiver.spans.find(
      (s) => s.parentSpanId === erp.spanId && s.kind === SPAN_KIND_CLIENT,
    );
    expect(sent).toBeDefined();
    const order = sim.calls.filter((c) => c.route === 'orders').at(-1)!;
    expect(order.traceparent).toBe(`00-${http.traceId}-${sent!.spanId}-01`);

    // The log lines of the request carry its trace.
    const lines = service
      .output()
      .split('\n')
      .filter((line) => line.includes(http.traceId));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((line) => line.includes('"span_id"'))).toBe(true);
  });

  it('marks a failed ERP call as an error span', async () => {
    sim.inject('orders', { type: 'unavailable' });
    const failedCheckout = await checkout(token, upstream);
    expect(failedCheckout.status).toBe(503);
    // The request's span ends last: once it is here, the whole trace is.
    const http = await receiver.waitFor(
      (s) => s.name === CHECKOUT_ROUTE && s.attributes['http.response.status_code'] === 503,
    );
    const erp = receiver.spans.find((s) => s.traceId === http.traceId && s.name === 'ERP orders');
    expect(erp).toBeDefined();
    expect(under(erp!, http)).toBe(true);
    expect(erp!.status.code).toBe(STATUS_ERROR);
    expect(erp!.attributes).toMatchObject({
      'http.response.status_code': 503,
      'erp.outcome': '5xx',
      'error.type': '503',
    });
    // Nothing was recorded: no record step in this trace.
    expect(
      receiver.spans.some((s) => s.traceId === http.traceId && s.name === 'checkout record'),
    ).toBe(false);
  });

  it('takes no traceparent from a caller that is not a trusted proxy', async () => {
    const given = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await call('GET', '/options/', {
      headers: { traceparent: `00-${given}-00f067aa0ba902b7-01` },
    });
    expect(answer.status).toBe(200);
    const span = await receiver.waitFor((s) => s.name === 'GET /api/v1/options/');
    expect(span.traceId).not.toBe(given);
    expect(span.parentSpanId).toBe('');
  });

  it('traces the scheduled retention: a trace per run, its statements under it', async () => {
    const retention = await receiver.waitFor((s) => s.name === 'retention');
    expect(retention.parentSpanId).toBe('');
    expect(
      receiver.spans.some((s) => s.traceId === retention.traceId && s.spanId !== retention.spanId),
    ).toBe(true);
  });

  it('traces the admin command: one span per job, named by the command', async () => {
    const admin = await receiver.waitFor((s) => s.name === 'admin seed demo');
    expect(admin.attributes['admin.command']).toBe('seed demo');
    expect(admin.resource['service.name']).toBe('ordering-test');
    expect(admin.end).toBeGreaterThan(admin.start);
  });

  it('puts no secret, token, password or personal field in any attribute', async () => {
    expect(receiver.spans.length).toBeGreaterThan(20);
    const seen: string[] = [];
    for (const span of receiver.spans) {
      for (const attributes of [span.attributes, ...span.eventAttributes]) {
        for (const [key, value] of Object.entries(attributes)) {
          seen.push(key);
          expect(key, `${span.name}: ${key}`).not.toMatch(SECRET_KEY);
          const text = JSON.stringify(value);
          for (const secret of secrets) expect(text, `${span.name}: ${key}`).not.toContain(secret);
        }
      }
      expect(span.status.message ?? '', span.name).toBe('');
    }
    // The checks saw routes, statements and ERP calls.
    expect(seen).toEqual(expect.arrayContaining(['http.route', 'db.query.text', 'erp.route']));
  });
});
