import { type ChildProcess, execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { DEMO_USERS } from '../../erp-simulator/data.js';
import { onPostgres } from '../helpers/db.js';
import { freePort, postgresBin, startServiceProcess } from '../helpers/process.js';

/**
 * `pg_ctl restart -m fast` (a minor upgrade, a failover) under a load of item adds, against
 * the service started as `npm start` starts it, on a throwaway PostgreSQL cluster.
 */
const run = promisify(execFile);

const bin = postgresBin();
const asRoot = process.getuid?.() === 0;
const enabled = onPostgres && bin !== undefined;
if (!enabled) {
  console.log(
    'PostgreSQL restart test skipped: it runs in the PostgreSQL pass (TEST_DATABASE_URL) where initdb and pg_ctl are installed.',
  );
}

/** initdb and pg_ctl refuse to run as root: as root they run as the postgres user. */
function pgCommand(name: string, args: string[]): [string, string[]] {
  const path = join(bin!, name);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

let dir: string | undefined;
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  if (dir) {
    const [cmd, args] = pgCommand('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
    await run(cmd, args).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
});

it.runIf(enabled)(
  'survives fast restarts under load, serves again within 1 s, and loses or doubles nothing',
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'ordering-pg-'));
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
      chownSync(dir, uid, gid);
    }
    const data = join(dir, 'data');
    const dbPort = await freePort();
    const pgCtl = (...args: string[]) => {
      const [cmd, rest] = pgCommand('pg_ctl', ['-D', data, ...args]);
      return run(cmd, rest);
    };
    const [initCmd, initArgs] = pgCommand('initdb', [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    await run(initCmd, initArgs);
    const serverOptions = `-p ${dbPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await pgCtl('-o', serverOptions, '-l', join(dir, 'log'), '-w', 'start');
    const databaseUrl = `postgres://postgres@127.0.0.1:${dbPort}/postgres`;

    // The service as `npm start` runs it: its own process, bundled ERP simulator, demo data.
    const appData = join(dir, 'app');
    mkdirSync(appData);
    const service = await startServiceProcess(
      {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: appData,
        LOG_LEVEL: 'warn',
        UPSTREAM_URL: '',
      },
      await freePort(),
      '/readyz',
    );
    child = service.child;
    const { url } = service;

    const anna = DEMO_USERS.find((u) => u.username === 'anna')!;
    const json = { 'content-type': 'application/json' };
    const login = await fetch(`${url}/api/v1/auth/jwt/token/`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: anna.username, password: anna.password }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { ...json, authorization: `Bearer ${token}` };
    const carts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${url}/api/v1/carts/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          organization: 'ORG-1001',
          customer_order_number: 'PO',
          order_mark: '',
        }),
      });
      expect(answer.status).toBe(201);
      carts.push(((await answer.json()) as { id: number }).id);
    }

    const accepted = new Map<number, number>(carts.map((c) => [c, 0]));
    const statuses = new Map<number, number>();
    let successes = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const cart = carts[(w + i) % carts.length];
        const quantity = (i % 5) + 1;
        const status = await fetch(`${url}/api/v1/items/`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ cart, part_number: `PN-${(w * 7 + i) % 6}`, quantity }),
        }).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status;
          },
          () => 0,
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 201) {
          accepted.set(cart, accepted.get(cart)! + quantity);
          successes += 1;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));

    const recoveries: number[] = [];
    for (let restart = 0; restart < 3; restart++) {
      const target = successes + 40;
      while (successes < target) await new Promise((resolve) => setTimeout(resolve, 10));
      await pgCtl('-o', serverOptions, '-l', join(dir, 'log'), '-m', 'fast', '-w', 'restart');
      // The database accepts connections again: how long until the service serves?
      const back = Date.now();
      let status = 0;
      while (status !== 200 && Date.now() - back < 10_000) {
        status = await fetch(`${url}/api/v1/carts/`, { headers }).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status;
          },
          () => 0,
        );
      }
      recoveries.push(Date.now() - back);
    }
    const target = successes + 40;
    while (successes < target) await new Promise((resolve) => setTimeout(resolve, 10));
    stop = true;
    await Promise.all(workers);

    console.log(
      `restart test: recoveries ${recoveries.join(', ')} ms; answers ${JSON.stringify([...statuses])}`,
    );
    expect(child.exitCode).toBeNull();
    expect([...statuses.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    for (const ms of recoveries) expect(ms).toBeLessThan(1000);
    const direct = new pg.Client({ connectionString: databaseUrl });
    await direct.connect();
    try {
      for (const cart of carts) {
        const { rows } = await direct.query(
          `select c.total_quantity, coalesce(sum(i.quantity), 0)::int as lines
             from carts c left join items i on i.cart_id = c.id where c.id = $1 group by c.id`,
          [cart],
        );
        expect(rows[0].lines).toBe(accepted.get(cart));
        expect(rows[0].total_quantity).toBe(accepted.get(cart));
      }
    } finally {
      await direct.end();
    }
    expect(service.output()).not.toMatch(/Unhandled|uncaught/i);
  },
  120_000,
);
