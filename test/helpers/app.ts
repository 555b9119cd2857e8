import { eq } from 'drizzle-orm';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../../erp-simulator/server.js';
import { buildApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { users } from '../../src/db/schema.js';
import type { App, Deps } from '../../src/deps.js';
import { UpstreamClient } from '../../src/upstream/client.js';
import { createTestDatabase } from './db.js';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (no JSON encoding). */
  raw?: string;
  headers?: Record<string, string>;
}

export interface Session {
  token: string;
  upstreamToken: string;
  userId: number;
  username: string;
}

export interface TestContext {
  url: string;
  app: App;
  sim: Simulator;
  database: Database;
  clock: ManualClock;
  /** The random source: tests set `random.value` (default 0.5). */
  random: { value: number };
  deps: Deps;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Answer<T>>;
  login(username: string): Promise<Session>;
  /** Logs in and makes the user staff or admin. */
  loginAs(username: string, role: 'staff' | 'admin'): Promise<Session>;
  close(): Promise<void>;
}

export const PASSWORDS = Object.fromEntries(DEMO_USERS.map((u) => [u.username, u.password]));

export interface TestOptions {
  env?: Record<string, string>;
  faults?: Deps['faults'];
  /** Unset: buildApp makes one from the config (REDIS_URL in `env`). */
  notifier?: Deps['notifier'];
  /** Unset: a fresh test database. Set: this one (opened through a proxy, say); closed with the app. */
  database?: Database;
  /** Unset: a fresh simulator. Set: this one; closed with the app. */
  sim?: Simulator;
  /** Where the service reaches upstream (a proxy in front of the simulator); default its URL. */
  upstreamUrl?: string;
  /** Unset: no log. Set: the app's log lines (info and up) as JSON text, one per write. */
  logStream?: NodeJS.WritableStream;
}

/**
 * One service on a real port, over a fresh database and its own simulator: tests talk
 * HTTP to it as a client would.
 */
export async function startTestApp(options: TestOptions = {}): Promise<TestContext> {
  const sim = options.sim ?? (await startSimulator());
  const upstreamUrl = options.upstreamUrl ?? sim.url;
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    DATABASE_URL: 'memory://',
    JWT_SECRET: 'test-secret-test-secret-test-secret',
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
    UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
    UPSTREAM_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    ...options.env,
  });
  const upstream = new UpstreamClient({
    url: upstreamUrl,
    timeoutMs: config.upstreamTimeoutMs,
    serviceAccount: DEMO_SERVICE_ACCOUNT,
    connections: config.upstreamConnections,
  });
  const clock = new ManualClock();
  const random = { value: 0.5 };
  const deps: Deps = {
    config,
    database,
    upstream,
    clock,
    random: () => random.value,
    faults: options.faults,
    notifier: options.notifier,
  };
  const app = await buildApp(deps, {
    logger: options.logStream ? { level: 'info', stream: options.logStream } : false,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;

  async function request<T>(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url + path, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  async function login(username: string): Promise<Session> {
    const answer = await request<any>('POST', '/api/v1/auth/jwt/token/', {
      body: { username, password: PASSWORDS[username] },
    });
    if (answer.status !== 200)
      throw new Error(`login ${username}: ${answer.status} ${answer.text}`);
    const [user] = await database.db.select().from(users).where(eq(users.username, username));
    return {
      token: answer.body.token,
      upstreamToken: answer.body.upstream_token,
      userId: user.id,
      username,
    };
  }

  async function loginAs(username: string, role: 'staff' | 'admin'): Promise<Session> {
    const session = await login(username);
    await database.db
      .update(users)
      .set(role === 'admin' ? { isAdmin: true } : { isStaff: true })
      .where(eq(users.id, session.userId));
    return session;
  }

  return {
    url,
    app,
    sim,
    database,
    clock,
    random,
    deps,
    request,
    login,
    loginAs,
    async close() {
      await app.close();
      await upstream.close();
      await sim.close();
      await database.close();
    },
  };
}
