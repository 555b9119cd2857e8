import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { Notifier } from '../../src/notifications/notifier.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';
import { cartWith, checkout, createStore } from '../helpers/fixtures.js';
import { sample } from '../helpers/metrics.js';
import { freePort } from '../helpers/process.js';
import { type Client, issueCode, open, wsUrl } from '../notifications/client.js';

const TOKEN = 'metrics-token-for-tests-0123456789';

describe('GET /metrics with METRICS_TOKEN', () => {
  let ctx: TestContext;
  let anna: Session;
  let socket: Client | undefined;

  const scrape = async () => {
    const answer = await ctx.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.text;
  };

  beforeAll(async () => {
    // A Redis nobody listens on: every publish to other instances fails (a fan-out error),
    // while the instance's own sockets still get their messages.
    const redisUrl = `redis://127.0.0.1:${await freePort()}`;
    ctx = await startTestApp({
      env: { METRICS_TOKEN: TOKEN },
      notifier: new Notifier({ redisUrl }),
    });
    anna = await ctx.login('anna');
  });
  afterAll(async () => {
    socket?.close();
    await ctx?.close();
  });

  it('answers only the bearer token: 401 without it or with another', async () => {
    const none = await ctx.request('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('not_authenticated');
    const wrong = await ctx.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('token_not_valid');
    const jwt = await ctx.request('GET', '/metrics', { token: anna.token });
    expect(jwt.status).toBe(401);
    await scrape();
  });

  it('moves the figures with traffic: requests, checkouts, random controls, upstream, WebSockets, fan-out errors', async () => {
    // A store where every checkout draws a random control.
    await createStore(ctx, DEMO_STORE_GLNS[2], { cartsForRandomControl: 1 });
    const before = await scrape();

    socket = await open(wsUrl(ctx.url, await issueCode(ctx, anna)));
    const store = DEMO_STORE_GLNS[2];
    const placed = await cartWith(ctx, anna, { store }, [['P-1', 2]]);
    expect((await checkout(ctx, anna, placed)).status).toBe(200);
    await socket.next(); // cart.checked_out reached the socket

    ctx.sim.inject('orders', { type: 'saturated' });
    const queued = await cartWith(ctx, anna, { store: null });
    expect((await checkout(ctx, anna, queued)).status).toBe(200);
    ctx.sim.inject('orders', { type: 'unavailable' });
    const unavailable = await cartWith(ctx, anna, { store: null });
    expect((await checkout(ctx, anna, unavailable)).status).toBe(503);
    ctx.sim.inject('orders', { type: 'html500' });
    const failed = await cartWith(ctx, anna, { store: null });
    expect((await checkout(ctx, anna, failed)).status).toBe(502);
    expect(
      (await ctx.request('GET', `/api/v1/carts/${placed}/`, { token: anna.token })).status,
    ).toBe(200);
    expect((await ctx.request('GET', '/no/such/path/12345')).status).toBe(404);

    const after = await scrape();
    const moved = (name: string, labels?: Record<string, string>) =>
      (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);

    // Requests by route pattern, method and status; unknown paths under one label.
    expect(
      moved('ordering_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/items/',
        status_code: '201',
      }),
    ).toBe(4);
    expect(
      moved('ordering_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/carts/:id/',
        status_code: '200',
      }),
    ).toBe(1);
    expect(
      sample(after, 'ordering_http_request_duration_seconds_count', {
        route: 'unmatched',
        status_code: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('/no/such/path');
    expect(after).not.toMatch(/route="\/api\/v1\/carts\/\d+\/"/);

    // Checkouts by outcome, random controls, upstream calls by kind and outcome.
    expect(moved('ordering_checkouts_total', { outcome: 'placed' })).toBe(1);
    expect(moved('ordering_checkouts_total', { outcome: 'queued' })).toBe(1);
    expect(moved('ordering_checkouts_total', { outcome: 'unavailable' })).toBe(1);
    expect(moved('ordering_checkouts_total', { outcome: 'failed' })).toBe(1);
    expect(moved('ordering_random_controls_drawn_total')).toBe(1);
    expect(
      moved('ordering_upstream_call_duration_seconds_count', { kind: 'orders', outcome: '2xx' }),
    ).toBeGreaterThanOrEqual(2);
    // Upstream's 503 and its HTML 500 were answers: by status class.
    expect(
      moved('ordering_upstream_call_duration_seconds_count', { kind: 'orders', outcome: '5xx' }),
    ).toBe(2);

    // The open WebSocket; the publishes Redis could not take.
    expect(sample(after, 'ordering_websocket_connections')).toBe(1);
    expect(moved('ordering_notification_fanout_errors_total')).toBeGreaterThanOrEqual(2);

    // The pool, and the process's default metrics.
    expect(sample(after, 'ordering_db_pool_max_connections')).toBe(onPostgres ? 20 : 1);
    expect(sample(after, 'ordering_db_pool_connections')).toBeGreaterThanOrEqual(1);
    if (onPostgres) {
      expect(sample(after, 'ordering_db_pool_idle_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'ordering_db_pool_waiting_clients')).toBe(0);
    } else {
      expect(sample(after, 'ordering_db_pool_idle_connections')).toBeUndefined();
    }
    // The database answers; the limits memory alerts compare with.
    expect(sample(after, 'ordering_database_up')).toBe(1);
    expect(sample(after, 'ordering_heap_limit_bytes')).toBe(getHeapStatistics().heap_size_limit);
    const memoryLimit = sample(after, 'ordering_memory_limit_bytes')!;
    expect(memoryLimit).toBeGreaterThan(0);
    expect(memoryLimit).toBeLessThanOrEqual(totalmem());
    expect(sample(after, 'process_resident_memory_bytes')).toBeLessThan(memoryLimit);
    expect(sample(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    socket.close();
    await socket.closed;
    await expect.poll(async () => sample(await scrape(), 'ordering_websocket_connections')).toBe(0);
  });

  it('reports a catalogue call that timed out as `timeout`', async () => {
    const before = await scrape();
    ctx.sim.inject('products.get', { type: 'hang' });
    const answer = await ctx.request('GET', '/api/v1/products/10001234/', {
      token: anna.token,
      headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
    });
    expect(answer.status).toBe(504);
    ctx.sim.release();
    const after = await scrape();
    const count = (text: string) =>
      sample(text, 'ordering_upstream_call_duration_seconds_count', {
        kind: 'catalogue',
        outcome: 'timeout',
      }) ?? 0;
    expect(count(after) - count(before)).toBe(1);
    const sum = (text: string) =>
      sample(text, 'ordering_upstream_call_duration_seconds_sum', {
        kind: 'catalogue',
        outcome: 'timeout',
      }) ?? 0;
    // UPSTREAM_TIMEOUT_MS is 2000 in the tests.
    expect(sum(after) - sum(before)).toBeGreaterThanOrEqual(1.9);
  });

  it('reports the identity calls of a login', async () => {
    const before = await scrape();
    await ctx.login('bruno');
    const after = await scrape();
    const count = (text: string) =>
      sample(text, 'ordering_upstream_call_duration_seconds_count', {
        kind: 'identity',
        outcome: '2xx',
      }) ?? 0;
    expect(count(after) - count(before)).toBeGreaterThanOrEqual(2);
  });
});

describe('ordering_database_up', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ env: { METRICS_PORT: '0' } });
  });
  afterAll(() => ctx?.close());

  const up = async () =>
    sample(await (await fetch(ctx.app.metricsUrl!)).text(), 'ordering_database_up');

  it('is 0 while the database does not answer within 2 s, 1 again when it does', async () => {
    expect(await up()).toBe(1);
    const ping = ctx.database.ping;
    ctx.database.ping = () => new Promise<void>(() => {});
    try {
      expect(await up()).toBe(0);
    } finally {
      ctx.database.ping = ping;
    }
    expect(await up()).toBe(1);
  });

  it('is 0 once the database is gone, and the scrape still answers', async () => {
    await ctx.database.close();
    // Closed here: ctx.close() must not close it a second time.
    ctx.database.close = async () => {};
    expect(await up()).toBe(0);
  });
});

describe('GET /metrics with METRICS_PORT', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ env: { METRICS_PORT: '0' } });
  });
  afterAll(() => ctx?.close());

  it('serves metrics on 127.0.0.1 on a port of its own, and not on the service port', async () => {
    const url = ctx.app.metricsUrl!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(url).port).not.toBe(new URL(ctx.url).port);
    expect((await ctx.request('GET', '/healthz')).status).toBe(200);
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(
      sample(text, 'ordering_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/healthz',
        status_code: '200',
      }),
    ).toBe(1);
    expect((await ctx.request('GET', '/metrics')).status).toBe(404);
    const other = await fetch(url.replace('/metrics', '/api/v1/options/'));
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
  });
});

describe('GET /metrics with METRICS_PORT and METRICS_TOKEN', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ env: { METRICS_PORT: '0', METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => ctx?.close());

  it('asks for the token on the metrics port too', async () => {
    const url = ctx.app.metricsUrl!;
    expect((await fetch(url)).status).toBe(401);
    const answer = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
  });
});

describe('GET /metrics with neither setting', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  it('is not served: 404, also with a token', async () => {
    expect(ctx.app.metrics).toBeUndefined();
    const answer = await ctx.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.status).toBe(404);
  });
});
