/**
 * `npm run bench:start [-- tsx|node]`: start time and memory of the service as production
 * starts it. Each of START_RUNS runs (default 5) starts the service against a PostgreSQL
 * database (BENCH_DATABASE_URL's server, a scratch database) and an ERP simulator in this
 * process, and measures the time from spawn to `/readyz` answering 200, the resident memory of
 * the process tree (the tsx CLI runs the service in a child process) once idle, and again
 * after a small load (GET carts/ with 10 connections for 5 s), and the CPU time the tree
 * used until ready (steadier than the wall time on a shared machine). Prints the medians.
 * `tsx`: `tsx src/main.ts` (the former `npm start`); `node`: `node dist/src/main.js`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../erp-simulator/data.js';
import { startSimulator } from '../erp-simulator/server.js';
import { openDatabase } from '../src/db/client.js';
import { freePort } from '../test/helpers/process.js';

const SERVER = process.env.BENCH_DATABASE_URL;
const RUNS = Number(process.env.START_RUNS ?? 5);
const COMMANDS: Record<string, string[]> = {
  tsx: ['node_modules/.bin/tsx', 'src/main.ts'],
  node: [process.execPath, 'dist/src/main.js'],
};

const TICKS_PER_SECOND = 100;

/**
 * Resident memory (MiB) and CPU time used so far (ms, user and system) of a process and all
 * its descendants (Linux /proc). CPU time does not grow when other work shares the cores.
 */
function treeUsage(pid: number): { rssMiB: number; cpuMs: number } {
  let kib = 0;
  let ticks = 0;
  const visit = (id: number) => {
    try {
      const status = readFileSync(`/proc/${id}/status`, 'utf8');
      kib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      // Fields after the command name: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const children = readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').trim();
        for (const child of children ? children.split(' ') : []) visit(Number(child));
      }
    } catch {
      // The process ended meanwhile.
    }
  };
  visit(pid);
  return { rssMiB: kib / 1024, cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  if (!SERVER) throw new Error('BENCH_DATABASE_URL is required (a PostgreSQL server URL)');
  const which = process.argv[2] ?? 'node';
  const command = COMMANDS[which];
  if (!command) throw new Error(`unknown command ${which}: tsx or node`);
  const name = `start_figures_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  await database.migrate();
  await database.close();
  const sim = await startSimulator();
  const anna = DEMO_USERS.find((u) => u.username === 'anna')!;
  const figures = {
    startMs: [] as number[],
    cpuMs: [] as number[],
    idleMiB: [] as number[],
    loadedMiB: [] as number[],
  };
  try {
    for (let run = 0; run < RUNS; run++) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const started = performance.now();
      const child = spawn(command[0], command.slice(1), {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          JWT_SECRET: 'start-figures-secret-start-figures-secret',
          DATABASE_URL: url.toString(),
          UPSTREAM_URL: sim.url,
          UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
          UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
          PORT: String(port),
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
      });
      for (;;) {
        const ok = await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (child.exitCode !== null) throw new Error(`${which}: the service exited`);
        await delay(5);
      }
      figures.startMs.push(performance.now() - started);
      figures.cpuMs.push(treeUsage(child.pid!).cpuMs);
      await delay(2000);
      figures.idleMiB.push(treeUsage(child.pid!).rssMiB);
      const login = await fetch(`${base}/api/v1/auth/jwt/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: anna.username, password: anna.password }),
      });
      const { token } = (await login.json()) as { token: string };
      await autocannon({
        url: `${base}/api/v1/carts/`,
        headers: { authorization: `Bearer ${token}` },
        connections: 10,
        duration: 5,
      });
      figures.loadedMiB.push(treeUsage(child.pid!).rssMiB);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      console.log(
        `${which} run ${run + 1}: ready in ${figures.startMs.at(-1)!.toFixed(0)} ms ` +
          `(${figures.cpuMs.at(-1)!.toFixed(0)} ms CPU), ` +
          `RSS ${figures.idleMiB.at(-1)!.toFixed(0)} MiB idle, ${figures.loadedMiB.at(-1)!.toFixed(0)} MiB after load`,
      );
    }
  } finally {
    await sim.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  console.log(
    `${which} (median of ${RUNS}): ready in ${median(figures.startMs).toFixed(0)} ms ` +
      `(${median(figures.cpuMs).toFixed(0)} ms CPU), ` +
      `RSS ${median(figures.idleMiB).toFixed(0)} MiB idle, ${median(figures.loadedMiB).toFixed(0)} MiB after load`,
  );
}

await main();
