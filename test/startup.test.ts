import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freePort,
  runProcess,
  SERVICE_MAIN,
  type ServiceProcess,
  startServiceProcess,
} from './helpers/process.js';

/**
 * What a person starting the service sees (`npm start`, src/main.ts and src/service.ts): a
 * line per stage from the first moment, the addresses to open at the end, `/` leading to the
 * console, a busy PORT refused before anything is created, and a development stop without
 * the production drain.
 */

const dirs: string[] = [];
let service: ServiceProcess | undefined;
let blocker: Server | undefined;
afterAll(() => {
  service?.child.kill('SIGKILL');
  blocker?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ordering-start-'));
  dirs.push(dir);
  return dir;
}

/** The development start of a fresh clone: the bundled simulator, DATA_DIR new. */
function developmentEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dir,
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    DEMO_CARTS: 'false',
    // Unset, as in a developer's shell (the helper sets 0 for tests that do not look).
    SHUTDOWN_DRAIN_MS: '',
  };
  for (const name of ['NODE_ENV', 'UPSTREAM_URL', 'DATABASE_URL', 'JWT_SECRET', 'PUBLIC_URL']) {
    delete env[name];
  }
  return env;
}

const messages = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; [key: string]: unknown });

describe('starting the service (npm start)', () => {
  it('says each stage as it starts, ends with the addresses, and / leads to the console', async () => {
    const port = await freePort();
    service = await startServiceProcess(developmentEnv(dataDir()), port);
    for (let i = 0; !service.output().includes('ready: '); i++) {
      if (i > 100) throw new Error(`no ready line: ${service.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The service's own lines (not the request log of the readiness polls).
    const lines = messages(service.output())
      .filter((line) => line.req === undefined && line.res === undefined)
      .map((line) => line.msg);
    // The first line comes before the database is created, not after.
    expect(lines[0]).toMatch(/^start: database \(creating embedded PostgreSQL in .+first start/);
    const stage = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const order = [
      stage(/^start: database/),
      stage(/^start: migrations$/),
      stage(/^start: demo data/),
      stage(/^listening$/),
      stage(/^ready: /),
    ];
    expect(
      order.every((index) => index >= 0),
      lines.join('\n'),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The addresses are the last line: what a person sees after the demo logins.
    const base = `http://127.0.0.1:${port}`;
    expect(lines.at(-1)).toBe(
      `ready: console ${base}/console/ · API docs ${base}/api/docs/ · API ${base}/api/v1/`,
    );
    expect((await fetch(`${base}/console/`)).status).toBe(200);
    expect((await fetch(`${base}/api/docs/`)).status).toBe(200);
    expect((await fetch(`${base}/api/v1/options/`)).status).toBe(200);
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console/');
  }, 90_000);

  it('stops at once on SIGTERM in development: no production drain', async () => {
    expect(service, 'the service of the test before').toBeDefined();
    const signalled = Date.now();
    service!.child.kill('SIGTERM');
    const [code] = await service!.exited;
    expect(code).toBe(0);
    const output = service!.output();
    expect(output).toContain('"drainMs":0');
    expect(output).not.toContain('draining');
    // The production drain alone would be 5 s.
    expect(Date.now() - signalled).toBeLessThan(4000);
    service = undefined;
  }, 30_000);

  it('refuses a busy PORT at once, with one line, before a database is created', async () => {
    blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as { port: number };
    const dir = dataDir();
    const begun = Date.now();
    const run = await runProcess(process.execPath, [SERVICE_MAIN], {
      env: { ...developmentEnv(dir), PORT: String(port) },
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`^error: PORT ${port} is in use on 127\\.0\\.0\\.1`));
    expect(run.stdout).not.toMatch(/start: database/);
    // Nothing was created: no embedded database, no demo data.
    expect(existsSync(join(dir, 'pglite'))).toBe(false);
    expect(readdirSync(dir).filter((name) => name !== 'jwt-secret')).toEqual([]);
    // Before the service's modules load: a moment, not the half minute of creating and
    // seeding a database first.
    expect(Date.now() - begun).toBeLessThan(5000);
  }, 30_000);
});
