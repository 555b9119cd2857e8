import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../erp-simulator/data.js';
import { freePort, type ServiceProcess, startServiceProcess } from '../helpers/process.js';

/**
 * `npm start` on a fresh clone (its own process, the bundled simulator, the embedded database
 * in DATA_DIR): a newcomer logging in as the demo admin sees a store chain's carts.
 */
const CARLA = DEMO_USERS.find((u) => u.username === 'carla')!;
const dir = mkdtempSync(join(tmpdir(), 'demo-start-'));
const running: ServiceProcess[] = [];

afterAll(async () => {
  for (const { child, exited } of running) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string, settings: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  const started = performance.now();
  const service = await startServiceProcess(
    { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MINUTE: '0', ...settings },
    await freePort(),
    '/readyz',
  );
  running.push(service);
  return { service, ms: Math.round(performance.now() - started) };
}

async function staffView(url: string) {
  const login = await fetch(`${url}/api/v1/auth/jwt/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: CARLA.username, password: CARLA.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const get = async (path: string) =>
    (
      await fetch(`${url}/api/v1/${path}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
  return {
    all: (await get('carts/?page_size=1')).count as number,
    active: (await get('carts/?active=True&page_size=1')).count as number,
    days: ((await get('carts/time-series/?interval=D')) as unknown[]).length,
  };
}

async function stop(service: ServiceProcess) {
  service.child.kill('SIGTERM');
  expect(await service.exited).toEqual([0, null]);
}

// `npm start` on a fresh clone is the embedded database's path; the PostgreSQL run skips it.
if (process.env.TEST_DATABASE_URL)
  console.log('npm start demo test skipped on PostgreSQL: it is the embedded database path.');
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('npm start with the demo', () => {
  it('seeds 90 days of carts once, with carts active right now', async () => {
    const dataDir = join(dir, 'demo');
    const first = await start(dataDir);
    const seen = await staffView(first.service.url);
    expect(seen.all).toBeGreaterThan(1000);
    expect(seen.active).toBeGreaterThanOrEqual(3);
    expect(seen.days).toBeGreaterThan(60);
    await stop(first.service);

    const again = await start(dataDir);
    expect(await staffView(again.service.url)).toEqual(seen);
    await stop(again.service);
    console.log(`demo start: first ${first.ms} ms (seeding), again ${again.ms} ms`);
  }, 120_000);

  // A fresh DATA_DIR runs initdb (about 4 s alone, more on a loaded machine).
  it('seeds no carts with DEMO_CARTS=false', async () => {
    const { service } = await start(join(dir, 'bare'), { DEMO_CARTS: 'false' });
    expect(await staffView(service.url)).toEqual({ all: 0, active: 0, days: 0 });
    await stop(service);
  }, 60_000);
});
