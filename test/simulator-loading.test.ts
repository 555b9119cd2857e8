import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../erp-simulator/server.js';
import { migratedDataDir } from './helpers/db.js';
import { freePort, type ServiceProcess, startServiceProcess } from './helpers/process.js';

/**
 * The ERP simulator (erp-simulator/) is no part of the service: `npm start` loads it only
 * when UPSTREAM_URL is unset. Each service here is its own process, started as `npm start`
 * starts it, with a loader hook (test/helpers/loaded-modules.mjs) that records the URL of
 * every module the process loads.
 */

// The service runs compiled, as `npm start` runs it: its modules are those of dist/.
const DIST = new URL('../dist/', import.meta.url);
const SIMULATOR_DIR = new URL('erp-simulator/', DIST).href;
const HOOK = './test/helpers/loaded-modules.mjs';
const ANNA = DEMO_USERS.find((u) => u.username === 'anna')!;

const dir = mkdtempSync(join(tmpdir(), 'loaded-modules-'));
const running: ServiceProcess[] = [];
let sim: Simulator | undefined;

afterAll(async () => {
  for (const { child, exited } of running) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the service with `settings`, logs Anna in, stops it; the modules it loaded. */
async function modulesLoaded(name: string, settings: Record<string, string>): Promise<string[]> {
  const file = join(dir, `${name}.txt`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const setting of Object.keys(env)) {
    if (setting.startsWith('UPSTREAM_')) delete env[setting];
  }
  const service = await startServiceProcess(
    {
      ...env,
      DATA_DIR: migratedDataDir(),
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--import ${HOOK}`,
      LOADED_MODULES_FILE: file,
      ...settings,
    },
    await freePort(),
  );
  running.push(service);
  // A call through the upstream system: a login, then the user's profile.
  const login = await fetch(`${service.url}/api/v1/auth/jwt/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ANNA.username, password: ANNA.password }),
  });
  expect(login.status, service.output()).toBe(200);
  service.child.kill('SIGTERM');
  expect(await service.exited).toEqual([0, null]);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('loading the ERP simulator', { timeout: 60_000 }, () => {
  it('a service with UPSTREAM_URL set loads no module of erp-simulator/', async () => {
    sim = await startSimulator();
    const loaded = await modulesLoaded('with-upstream', {
      UPSTREAM_URL: sim.url,
      UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
      UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
    });
    // The hook saw the service's own modules…
    expect(loaded).toContain(new URL('src/service.js', DIST).href);
    expect(loaded).toContain(new URL('src/upstream/client.js', DIST).href);
    // Compiled code with plain node: no TypeScript source, no tsx loader.
    expect(loaded.filter((url) => url.endsWith('.ts') || url.includes('/tsx/'))).toEqual([]);
    // …and none of the simulator's, while the login went to the simulator of this test.
    expect(loaded.filter((url) => url.startsWith(SIMULATOR_DIR))).toEqual([]);
    expect(sim.calls.some((call) => call.route === 'auth.token')).toBe(true);
  });

  it('a service with UPSTREAM_URL unset loads the bundled simulator and its demo data', async () => {
    const loaded = await modulesLoaded('without-upstream', {});
    expect(loaded).toContain(new URL('erp-simulator/server.js', DIST).href);
    expect(loaded).toContain(new URL('erp-simulator/data.js', DIST).href);
  });
});
