import { Agent, request as httpRequest } from 'node:http';
import { type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../erp-simulator/server.js';
import { migratedDataDir } from './helpers/db.js';
import { freePort, type ServiceProcess, startServiceProcess } from './helpers/process.js';
import { until } from './helpers/wait.js';
import { open, wsUrl } from './notifications/client.js';

/**
 * Shutdown as a balancer sees it (issue 18): on SIGTERM `/readyz` fails at once, the
 * instance keeps serving, kept-alive connections stay usable, until SHUTDOWN_DRAIN_MS ends;
 * then WebSockets close with 1001, idle connections close, requests in flight finish, and the
 * process exits 0; SHUTDOWN_TIMEOUT_MS bounds it all. Through the real process.
 */

let sim: Simulator | undefined;
const services: ServiceProcess[] = [];
afterAll(async () => {
  for (const service of services) service.child.kill('SIGKILL');
  await sim?.close();
});

const anna = DEMO_USERS.find((u) => u.username === 'anna')!;

async function start(extra: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  sim ??= await startSimulator();
  const service = await startServiceProcess(
    {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'drain-test-secret-drain-test-secret',
      DATA_DIR: migratedDataDir(),
      LOG_LEVEL: 'info',
      UPSTREAM_URL: sim.url,
      UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
      UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
      ...extra,
    },
    await freePort(),
    '/readyz',
  );
  services.push(service);
  return service;
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  /** The client side of the TCP connection the answer came on. */
  socket: Socket;
}

/** One request through `agent` (kept-alive connections are reused). */
function call(
  url: string,
  options: { method?: string; agent?: Agent; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', agent: options.agent, headers: options.headers },
      (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            connection: response.headers.connection,
            body,
            socket: req.socket as Socket,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

async function login(url: string, agent?: Agent): Promise<string> {
  const answer = await call(`${url}/api/v1/auth/jwt/token/`, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: anna.username, password: anna.password }),
  });
  expect(answer.status, answer.body).toBe(200);
  return JSON.parse(answer.body).token;
}

describe('SIGTERM drains before it stops (src/main.ts)', () => {
  it('fails /readyz with 404, keeps serving kept-alive and new connections for the drain, then closes WebSockets with 1001 and exits 0', async () => {
    const drainMs = 2500;
    const service = await start({ SHUTDOWN_DRAIN_MS: String(drainMs) });
    const { url, child, exited } = service;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const token = await login(url, agent);
    const auth = { authorization: `Bearer ${token}` };
    const before = await call(`${url}/api/v1/carts/`, { agent, headers: auth });
    expect(before.status).toBe(200);
    expect(before.connection).toBe('keep-alive');
    const keptAlive = before.socket;
    const keptAliveClosed = new Promise<number>((resolve) =>
      keptAlive.once('close', () => resolve(Date.now())),
    );
    // A connection that has sent nothing yet (a balancer's pool opens them ahead of use).
    const quiet = tcpConnect(Number(new URL(url).port), '127.0.0.1');
    await new Promise((resolve) => quiet.once('connect', resolve));
    const quietClosed = new Promise<number>((resolve) =>
      quiet.once('close', () => resolve(Date.now())),
    );
    const codeAnswer = await call(`${url}/api/v1/websocket-notifications/groups/`, {
      method: 'POST',
      agent,
      headers: auth,
    });
    expect(codeAnswer.status).toBe(201);
    const socket = await open(wsUrl(url, JSON.parse(codeAnswer.body).code));
    const socketClosedAt = socket.closed.then((code) => ({ code, at: Date.now() }));

    const sigterm = Date.now();
    child.kill('SIGTERM');
    // Readiness fails at once (404: HAProxy's disable-on-404); liveness does not.
    await until(
      async () => (await fetch(`${url}/readyz`)).status === 404,
      '/readyz answers 404 after SIGTERM',
      2000,
    );
    const ready = await fetch(`${url}/readyz`);
    expect(await ready.json()).toEqual({ status: 'draining', detail: 'shutting down' });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // The kept-alive connection still serves (the balancer may be using it right now), and
    // its answer ends it: the balancer's next request opens a connection to a ready instance.
    const during = await call(`${url}/api/v1/carts/`, { agent, headers: auth });
    expect(during.status).toBe(200);
    expect(during.socket).toBe(keptAlive);
    expect(during.connection).toBe('close');
    // New connections are still accepted and served.
    const fresh = await fetch(`${url}/api/v1/carts/`, { headers: auth });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('connection')).toBe('close');
    expect(socket.socket.readyState).toBe(socket.socket.OPEN);

    // A request in flight when the drain ends is finished.
    sim!.inject('auth.token', { type: 'delay', ms: drainMs });
    const inFlight = login(url);
    const closed = await socketClosedAt;
    expect(closed.code).toBe(1001);
    expect(closed.at - sigterm).toBeGreaterThanOrEqual(drainMs - 50);
    expect(await inFlight).toEqual(expect.any(String));
    // The quiet connection was left alone for the drain, then closed.
    expect((await quietClosed) - sigterm).toBeGreaterThanOrEqual(drainMs - 50);
    await keptAliveClosed;
    const [code] = await exited;
    expect(code).toBe(0);
    const output = service.output();
    expect(output).toContain('"drainMs":2500');
    expect(output).toContain('draining');
    sim!.clearFaults();
  }, 60_000);

  it('exits 1 at SHUTDOWN_TIMEOUT_MS when a request does not finish', async () => {
    const service = await start({
      SHUTDOWN_DRAIN_MS: '100',
      SHUTDOWN_TIMEOUT_MS: '1500',
      UPSTREAM_TIMEOUT_MS: '60000',
    });
    sim!.inject('auth.token', { type: 'delay', ms: 30_000 });
    const calls = sim!.calls.length;
    const hanging = login(service.url).catch(() => 'cut');
    await until(
      () => sim!.calls.slice(calls).some((c) => c.route === 'auth.token'),
      'the login reached the ERP',
    );
    const sigterm = Date.now();
    service.child.kill('SIGTERM');
    const [code] = await service.exited;
    const took = Date.now() - sigterm;
    expect(code).toBe(1);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(5000);
    expect(await hanging).toBe('cut');
    expect(service.output()).toContain('shutdown deadline passed');
    sim!.clearFaults();
  }, 60_000);
});
