import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { PASSWORDS } from '../helpers/app.js';
import { createPostgresDatabase, migratedDataDir, onPostgres } from '../helpers/db.js';
import { freePort, type Run, runProcess, startServiceProcess } from '../helpers/process.js';
import { type Client, open, wsUrl } from '../notifications/client.js';

/**
 * ASVS 7.4.5: an administrator ends a user's sessions with `ordering-admin users end-sessions
 * <username>` (and `users erase` does the same): every token of the user is refused from then
 * on, and the user's open notification sockets close on every running instance — at once
 * through Redis when REDIS_URL is set, else at each instance's next heartbeat (the session
 * generation is checked there). The real bin against services started as `npm start` does.
 * On PGlite the service holds DATA_DIR, so the command runs while it is stopped.
 */

const bin = fileURLToPath(new URL('../../bin/ordering-admin.js', import.meta.url));
const redisUrl = process.env.TEST_REDIS_URL;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The settings of a service and of the admin command: one database, one JWT secret. */
async function setting(): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'development',
    JWT_SECRET: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    DEMO_CARTS: 'false',
  };
  if (onPostgres) {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    env.DATABASE_URL = database.url;
  } else {
    env.DATA_DIR = migratedDataDir();
  }
  return env;
}

interface Service {
  url: string;
  stop(): Promise<void>;
}

async function service(env: Record<string, string>): Promise<Service> {
  const started = await startServiceProcess(env, await freePort(), '/readyz');
  const stop = async () => {
    if (started.child.exitCode !== null) return;
    started.child.kill('SIGTERM');
    await started.exited;
  };
  cleanups.push(stop);
  return { url: started.url, stop };
}

const admin = (args: string[], env: Record<string, string>): Promise<Run> =>
  runProcess(process.execPath, [bin, ...args], { env });

async function login(url: string, username: string): Promise<string> {
  const answer = await fetch(`${url}/api/v1/auth/jwt/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORDS[username] }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { token: string }).token;
}

const me = (url: string, token: string) =>
  fetch(`${url}/api/v1/users/me/`, { headers: { authorization: `Bearer ${token}` } }).then(
    (r) => r.status,
  );

const refresh = (url: string, token: string) =>
  fetch(`${url}/api/v1/auth/jwt/refresh/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  }).then((r) => r.status);

async function socket(url: string, token: string): Promise<Client> {
  const answer = await fetch(`${url}/api/v1/websocket-notifications/groups/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(201);
  const { code } = (await answer.json()) as { code: string };
  const client = await open(wsUrl(url, code));
  cleanups.push(async () => client.close());
  return client;
}

/** The close code within `ms`, or 'open' when the socket is still open then. */
function closedWithin(client: Client, ms: number): Promise<number | 'open'> {
  return Promise.race([
    client.closed,
    new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms).unref()),
  ]);
}

// Each case starts real processes (services, the admin command); on PGlite each opens the
// database anew, and the first case does so four times: more than the default timeout on a
// loaded machine (20 s was hit once), as the other process tests allow.
describe('ordering-admin users end-sessions', { timeout: 180_000 }, () => {
  it('ends every token of the user (access and refresh); another user keeps theirs; an unknown user is an error', async () => {
    const env = await setting();
    let running = await service(env);
    const anna = await login(running.url, 'anna');
    const bruno = await login(running.url, 'bruno');
    // On PGlite the service holds DATA_DIR: the command runs while it is stopped.
    if (!onPostgres) await running.stop();
    const run = await admin(['users', 'end-sessions', 'anna'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ended the sessions of anna');
    expect(run.stdout).toContain('heartbeat');
    const unknown = await admin(['users', 'end-sessions', 'nobody'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: unknown user "nobody"\n$/);
    if (!onPostgres) running = await service(env);
    expect(await me(running.url, anna)).toBe(401);
    expect(await refresh(running.url, anna)).toBe(400);
    expect(await me(running.url, bruno)).toBe(200);
    // A new login works.
    expect(await me(running.url, await login(running.url, 'anna'))).toBe(200);
  });

  it.skipIf(!onPostgres)(
    'without Redis: the open socket of the user closes with 4401 at the next heartbeat',
    async () => {
      const env = await setting();
      const running = await service({ ...env, WS_HEARTBEAT_SECONDS: '1' });
      const anna = await socket(running.url, await login(running.url, 'anna'));
      const bruno = await socket(running.url, await login(running.url, 'bruno'));
      const run = await admin(['users', 'end-sessions', 'anna'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("at each instance's next heartbeat");
      expect(await closedWithin(anna, 10_000)).toBe(4401);
      expect(bruno.socket.readyState).toBe(WebSocket.OPEN);
    },
  );

  it.skipIf(!onPostgres || !redisUrl)(
    'with Redis: the sockets of the user close with 4401 on every instance at once',
    async () => {
      const env = { ...(await setting()), REDIS_URL: redisUrl! };
      // A heartbeat far away: only the Redis message can close the sockets in time.
      const a = await service({ ...env, WS_HEARTBEAT_SECONDS: '3600' });
      const b = await service({ ...env, WS_HEARTBEAT_SECONDS: '3600' });
      const token = await login(a.url, 'anna');
      const atA = await socket(a.url, token);
      const atB = await socket(b.url, token);
      const bruno = await socket(b.url, await login(b.url, 'bruno'));
      const run = await admin(['users', 'end-sessions', 'anna'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('closed on every instance (through Redis)');
      expect(await closedWithin(atA, 5000)).toBe(4401);
      expect(await closedWithin(atB, 5000)).toBe(4401);
      expect(bruno.socket.readyState).toBe(WebSocket.OPEN);
      expect(await me(b.url, token)).toBe(401);
    },
  );

  it.skipIf(!onPostgres)(
    'Redis not answering: the command still ends the sessions, says so, and returns within its bound',
    async () => {
      const held: Socket[] = [];
      const silent = createServer((s) => held.push(s)).listen(0, '127.0.0.1');
      await once(silent, 'listening');
      cleanups.push(async () => {
        for (const s of held) s.destroy();
        silent.close();
      });
      const port = (silent.address() as { port: number }).port;
      const env = await setting();
      const running = await service(env);
      const token = await login(running.url, 'anna');
      const started = Date.now();
      const run = await admin(['users', 'end-sessions', 'anna'], {
        ...env,
        REDIS_URL: `redis://127.0.0.1:${port}`,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Redis did not take the close message');
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await me(running.url, token)).toBe(401);
    },
  );
});

describe('ordering-admin users erase', () => {
  it.skipIf(!onPostgres || !redisUrl)("closes the person's sockets on every instance", async () => {
    const env = { ...(await setting()), REDIS_URL: redisUrl! };
    const a = await service({ ...env, WS_HEARTBEAT_SECONDS: '3600' });
    const b = await service({ ...env, WS_HEARTBEAT_SECONDS: '3600' });
    const token = await login(a.url, 'anna');
    const atA = await socket(a.url, token);
    const atB = await socket(b.url, token);
    const run = await admin(['users', 'erase', 'anna'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('closed on every instance (through Redis)');
    expect(await closedWithin(atA, 5000)).toBe(4401);
    expect(await closedWithin(atB, 5000)).toBe(4401);
  });
});

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
