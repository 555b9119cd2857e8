import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../erp-simulator/server.js';
import { migratedDataDir } from './helpers/db.js';
import { freePort, runProcess, SERVICE_MAIN, startServiceProcess } from './helpers/process.js';

let child: ChildProcess | undefined;
let sim: Simulator | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  await sim?.close();
});

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('the service process (src/main.ts)', () => {
  it('finishes requests in flight on SIGTERM, exits 0 and logs no secret', async () => {
    sim = await startSimulator();
    const port = await freePort();
    // Ready when /healthz answers, as a load balancer sees it.
    const service = await startServiceProcess(
      {
        ...process.env,
        DATA_DIR: migratedDataDir(),
        LOG_LEVEL: 'info',
        UPSTREAM_URL: sim.url,
        UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
        UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
      },
      port,
    );
    child = service.child;
    const { exited, url } = service;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const anna = DEMO_USERS.find((u) => u.username === 'anna')!;
    const login = await fetch(
      `${url}/api/v1/auth/jwt/token/`,
      post({ username: anna.username, password: anna.password }),
    );
    expect(login.status).toBe(200);
    const { token, upstream_token } = (await login.json()) as {
      token: string;
      upstream_token: string;
    };
    const carts = await fetch(`${url}/api/v1/carts/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(carts.status).toBe(200);

    // A slow login is in flight when SIGTERM arrives: it still completes, and closes its
    // keep-alive connection so the process need not wait out the keep-alive timeout.
    sim.inject('auth.token', { type: 'delay', ms: 1000 });
    const slow = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      const call = httpRequest(
        `${url}/api/v1/auth/jwt/token/`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', connection: 'keep-alive' },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode!, connection: response.headers.connection }),
          );
        },
      );
      call.on('error', reject);
      call.end(JSON.stringify({ username: anna.username, password: anna.password }));
    });
    while (!sim.calls.some((c, i) => c.route === 'auth.token' && i > 1)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGTERM');
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.connection).toBe('close');
    const [code] = await exited;
    expect(code).toBe(0);
    const output = service.output();
    expect(output).toContain('shutting down');
    for (const secret of [token, upstream_token, anna.password])
      expect(output).not.toContain(secret);
  }, 90_000);

  it('refuses production without UPSTREAM_URL: one line naming it, no demo account, nothing listening', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'production-secret-production-secret',
      DATABASE_URL: 'memory://',
      LOG_LEVEL: 'info',
      PORT: String(port),
    };
    delete env.UPSTREAM_URL;
    const run = await runProcess(process.execPath, [SERVICE_MAIN], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^error: UPSTREAM_URL is required when NODE_ENV=production/);
    for (const user of DEMO_USERS) expect(run.stderr).not.toContain(user.password);
    // The demo administrator has nowhere to log in.
    const carla = DEMO_USERS.find((u) => u.username === 'carla')!;
    const login = await fetch(
      `http://127.0.0.1:${port}/api/v1/auth/jwt/token/`,
      post({ username: carla.username, password: carla.password }),
    ).then(
      (response) => response.status,
      () => 'refused',
    );
    expect(login).toBe('refused');
  }, 30_000);

  it('refuses a bad setting with one line naming the variable', async () => {
    const bad = spawn(process.execPath, [SERVICE_MAIN], {
      env: { ...process.env, UPSTREAM_TIMEOUT_MS: 'soon' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    bad.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(bad, 'exit');
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('UPSTREAM_TIMEOUT_MS');
  }, 30_000);
});
