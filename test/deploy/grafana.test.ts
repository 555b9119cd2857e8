import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parse, stringify } from 'yaml';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../../erp-simulator/server.js';
import { createPostgresDatabase, migratedDataDir } from '../helpers/db.js';
import { freePort, type ServiceProcess, startServiceProcess } from '../helpers/process.js';
import { binary, PROMETHEUS_DIR, rulesOf } from './rules.js';

/**
 * deploy/grafana/ordering.json and deploy/prometheus/ against a real Prometheus (Debian's):
 * it runs with the example prometheus.yml (target, token file and intervals changed) and
 * scrapes the service started as `npm start` starts it (METRICS_PORT with METRICS_TOKEN)
 * under a little load. Every dashboard query and every recorded series then returns data,
 * every rule evaluates without error, and every series an alert reads exists.
 */

const PROMETHEUS = binary('prometheus');
if (!PROMETHEUS) {
  console.warn(
    'Dashboard and rule queries against Prometheus skipped: no prometheus (apt-get install prometheus).',
  );
}

const DASHBOARD = join(PROMETHEUS_DIR, '..', 'grafana', 'ordering.json');
const JOB = 'ordering';
/** On the embedded database the pool has no idle or waiting figures (docs/operations.md). */
const POSTGRES_ONLY = /ordering_db_pool_(idle_connections|waiting_clients)/;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** The series names in an expression: recorded (`a:b:c`), the service's, and `up`. */
const SERIES_NAME =
  /(?<![\w:])([a-z_]+:[a-z0-9_:]+|(?:ordering|nodejs|process)_[a-z0-9_]+|up(?=\{))(?![\w:])/g;

interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
}

/** The dashboard's queries as Grafana sends them: `$job` and `$__rate_interval` filled in. */
function dashboardQueries(): { panel: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
  return dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      panel: panel.title,
      expr: target.expr.replaceAll('$job', JOB).replaceAll('$__rate_interval', '1m'),
    })),
  );
}

describe.skipIf(!PROMETHEUS)('the dashboard and the rules against a real Prometheus', () => {
  let dir: string;
  let sim: Simulator;
  let service: ServiceProcess | undefined;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  let socket: WebSocket | undefined;

  const query = async (expr: string) => {
    const answer = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await answer.json()) as {
      status: string;
      error?: string;
      data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    return { status: body.status, error: body.error, result: body.data?.result ?? [] };
  };
  /** Polls `expr` until it returns a sample (Prometheus scrapes and evaluates every second). */
  const withData = async (expr: string, seconds = 20) => {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const answer = await query(expr);
      if (answer.status !== 'success' || answer.result.length > 0 || Date.now() > deadline) {
        return answer;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ordering-prometheus-'));
    sim = await startSimulator();
    const token = randomBytes(24).toString('hex');
    const [port, metricsPort, prometheusPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: token,
      UPSTREAM_URL: sim.url,
      UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
      UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
      UPSTREAM_TIMEOUT_MS: '2000',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
    };
    if (onPostgres) {
      const database = await createPostgresDatabase({ empty: true });
      dropDatabase = database.drop;
      env.DATABASE_URL = database.url;
    } else {
      env.DATA_DIR = migratedDataDir();
    }
    service = await startServiceProcess(env, port, '/readyz');

    // The example configuration, pointed at this service and scraping every second.
    const config = parse(readFileSync(join(PROMETHEUS_DIR, 'prometheus.yml'), 'utf8'));
    config.global = { scrape_interval: '1s', evaluation_interval: '1s' };
    config.rule_files = config.rule_files.map((file: string) => join(PROMETHEUS_DIR, file));
    const [job] = config.scrape_configs;
    expect(job.job_name).toBe(JOB);
    writeFileSync(join(dir, 'token'), token);
    job.authorization.credentials_file = join(dir, 'token');
    job.static_configs = [{ targets: [`127.0.0.1:${metricsPort}`] }];
    writeFileSync(join(dir, 'prometheus.yml'), stringify(config));

    prometheusUrl = `http://127.0.0.1:${prometheusPort}`;
    prometheus = spawn(
      PROMETHEUS!,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${prometheusPort}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    prometheus.stderr!.on('data', (chunk) => {
      log += chunk;
    });
    for (let i = 0; ; i++) {
      const ready = await fetch(`${prometheusUrl}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (i > 200 || prometheus.exitCode !== null) throw new Error(`no Prometheus: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    socket?.close();
    if (prometheus && prometheus.exitCode === null) {
      prometheus.kill('SIGTERM');
      await once(prometheus, 'exit');
    }
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await sim?.close();
    await dropDatabase?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every dashboard query, recorded series and alert input returns data; every rule evaluates', async () => {
    // Scraped with the token from the file (a 401 would leave up at 0).
    const up = await withData(`up{job="${JOB}"} == 1`);
    expect(up.result, 'the service is scraped').toHaveLength(1);

    // A little load: logins, a cart with scans, reads, a checkout, a WebSocket, and a
    // checkout the ERP refuses (a 503, an upstream failure, a failed checkout).
    const url = service!.url;
    const call = async (method: string, path: string, token?: string, body?: unknown) => {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const answer = await fetch(url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, text, body: text ? JSON.parse(text) : undefined };
    };
    const anna = DEMO_USERS.find((user) => user.username === 'anna')!;
    const login = await call('POST', '/api/v1/auth/jwt/token/', undefined, {
      username: anna.username,
      password: anna.password,
    });
    expect(login.status, login.text).toBe(200);
    const token: string = login.body.token;
    const newCart = async () => {
      const cart = await call('POST', '/api/v1/carts/', token, {
        organization: 'ORG-1001',
        customer_order_number: 'PO-1',
        order_mark: '',
      });
      expect(cart.status, cart.text).toBe(201);
      for (const quantity of [1, 2]) {
        const item = await call('POST', '/api/v1/items/', token, {
          cart: cart.body.id,
          part_number: '10001234',
          quantity,
        });
        expect(item.status, item.text).toBe(201);
      }
      expect((await call('GET', `/api/v1/carts/${cart.body.id}/`, token)).status).toBe(200);
      return cart.body.id as number;
    };
    const code = await call('POST', '/api/v1/websocket-notifications/groups/', token);
    expect(code.status, code.text).toBe(201);
    socket = new WebSocket(
      `${url.replace(/^http/, 'ws')}/ws/notifications/?code=${encodeURIComponent(code.body.code)}`,
    );
    await once(socket, 'open');
    const placed = await call('PATCH', `/api/v1/carts/${await newCart()}/checkout/`, token);
    expect(placed.status, placed.text).toBe(200);
    sim.inject('orders', { type: 'unavailable' });
    const refused = await call('PATCH', `/api/v1/carts/${await newCart()}/checkout/`, token);
    expect(refused.status, refused.text).toBe(503);
    // Scraped after the load, and the recording rules evaluated on it: from here on every
    // query answers at once (a short poll covers the next evaluation).
    await withData(`outcome:ordering_checkouts:rate5m{outcome="unavailable"} > 0`);

    const empty: string[] = [];
    const check = async (what: string, expr: string) => {
      const expected = onPostgres || !POSTGRES_ONLY.test(expr);
      const answer = expected ? await withData(expr, 3) : await query(expr);
      expect(answer.status, `${what}: ${expr}: ${answer.error}`).toBe('success');
      if (expected && answer.result.length === 0) empty.push(`${what}: ${expr}`);
      if (!expected) expect(answer.result, `${what} on the embedded database`).toEqual([]);
    };

    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThanOrEqual(20);
    for (const { panel, expr } of queries) await check(`panel "${panel}"`, expr);

    for (const rule of rulesOf('rules.yml')) {
      await check(`recorded ${rule.record}`, `${rule.record}{job="${JOB}"}`);
    }

    // Each alert's expression is valid; the series it reads exist (the alert itself is quiet).
    for (const rule of rulesOf('alerts.yml')) {
      const answer = await query(rule.expr);
      expect(answer.status, `${rule.alert}: ${answer.error}`).toBe('success');
      const names = new Set([...rule.expr.matchAll(SERIES_NAME)].map((m) => m[1]));
      expect(names.size, rule.alert).toBeGreaterThan(0);
      for (const name of names) await check(`${rule.alert} reads`, `${name}{job="${JOB}"}`);
    }
    expect(empty, 'queries without data').toEqual([]);

    // Prometheus evaluated every rule of both files without an error.
    const rules = (await (await fetch(`${prometheusUrl}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] };
    };
    const evaluated = rules.data.groups.flatMap((group) => group.rules);
    expect(evaluated).toHaveLength(rulesOf('rules.yml').length + rulesOf('alerts.yml').length);
    for (const rule of evaluated) expect(rule.health, `${rule.name}: ${rule.lastError}`).toBe('ok');
  }, 60_000);
});
