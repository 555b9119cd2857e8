import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startCommand } from '../helpers/process.js';
import { until } from '../helpers/wait.js';

/** The shipped files the fleet runs from. */
export const HAPROXY_CFG = 'deploy/haproxy/haproxy.cfg';
export const INSTANCE_ENV = 'deploy/fleet/instance.env.example';

const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find(
  (path) => spawnSync(path, ['-v']).status === 0,
);
export const haproxyInstalled = HAPROXY !== undefined;

/** A process of the fleet: its output kept, its exit awaited. */
export interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** `as`: another user to run it as (a test running as root starts PostgreSQL's tools). */
export function spawnProc(
  command: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
  as?: { uid: number; gid: number; cwd?: string },
): Proc {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...as });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, output: () => output, exited };
}

/** The lines of instance.env.example as variables (comments and blank lines left out). */
export function readEnvFile(file = INSTANCE_ENV): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) vars[match[1]] = match[2];
  }
  return vars;
}

/**
 * An instance's environment: the shipped file with only the per-site values replaced
 * (addresses, ports, secrets). Throws when a replaced name is not in the file: the test
 * must not set what the file does not.
 */
export function instanceEnv(site: Record<string, string>): Record<string, string> {
  const vars = readEnvFile();
  for (const name of Object.keys(site)) {
    if (!(name in vars)) throw new Error(`${INSTANCE_ENV} has no ${name}`);
  }
  return { ...vars, ...site };
}

export interface Instance {
  name: string;
  port: number;
  url: string;
  proc: Proc | undefined;
  /** Every process this instance ran, for the logs of a failure. */
  history: Proc[];
}

/** Starts (or restarts) an instance and resolves once its own /readyz answers 200. */
/** The ERP simulator as production builds it (dist/), on a port of its own, answering. */
export async function startSimulatorProcess(): Promise<{ proc: Proc; url: string }> {
  const port = await freePort();
  const proc = spawnProc(process.execPath, ['dist/erp-simulator/main.js'], {
    PATH: process.env.PATH,
    PORT: String(port),
  });
  const url = `http://127.0.0.1:${port}`;
  await until(
    () =>
      fetch(`${url}/_sim/orders`).then(
        (r) => r.ok,
        () => false,
      ),
    'the ERP simulator answers',
  );
  return { proc, url };
}

export async function startInstance(instance: Instance, env: Record<string, string>) {
  const proc = spawnProc(startCommand(env)[0], startCommand(env).slice(1), {
    PATH: process.env.PATH,
    ...env,
    PORT: String(instance.port),
  });
  instance.proc = proc;
  instance.history.push(proc);
  await until(
    async () => {
      if (proc.child.exitCode !== null) {
        throw new Error(`${instance.name} exited at start:\n${proc.output()}`);
      }
      return fetch(`${instance.url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
    },
    `${instance.name} ready`,
    60_000,
    100,
  );
}

export interface HaProxy {
  url: string;
  proc: Proc;
  /** Each server's status as `show stat` gives it: UP, DOWN, NOLB (draining), `UP 1/2`… */
  status(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * HAProxy from deploy/haproxy/haproxy.cfg, changed only where a test must: the frontend's
 * port, the servers' addresses and the stats socket's path (and what `edit` changes, named
 * by the test that does). Logging goes to /dev/log as shipped (nothing listens there in a
 * test).
 */
export async function startHaProxy(
  servers: Record<string, number>,
  edit: (cfg: string) => string = (cfg) => cfg,
): Promise<HaProxy> {
  if (!HAPROXY) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
  const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
  const port = await freePort();
  const socket = join(dir, 'admin.sock');
  const replace = (text: string, pattern: RegExp, by: string) => {
    if (!pattern.test(text)) throw new Error(`${HAPROXY_CFG}: no line ${pattern}`);
    return text.replace(pattern, by);
  };
  let cfg = readFileSync(HAPROXY_CFG, 'utf8');
  cfg = replace(cfg, /^ {4}bind :80$/m, `    bind 127.0.0.1:${port}`);
  cfg = replace(
    cfg,
    /^ {4}stats socket \/run\/haproxy\/admin\.sock /m,
    `    stats socket ${socket} `,
  );
  for (const [name, serverPort] of Object.entries(servers)) {
    cfg = replace(
      cfg,
      new RegExp(`^ {4}server ${name} 127\\.0\\.0\\.1:\\d+$`, 'm'),
      `    server ${name} 127.0.0.1:${serverPort}`,
    );
  }
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, edit(cfg));
  const check = spawnSync(HAPROXY, ['-c', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c: ${check.stdout}${check.stderr}`);
  const proc = spawnProc(HAPROXY, ['-db', '-f', file]);
  const status = async () => {
    const csv = await adminCommand(socket, 'show stat');
    const [header, ...rows] = csv.trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const at = (name: string) => columns.indexOf(name);
    const result: Record<string, string> = {};
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[at('pxname')] === 'instances' && cells[at('svname')] !== 'BACKEND') {
        result[cells[at('svname')]] = cells[at('status')];
      }
    }
    return result;
  };
  await until(async () => {
    if (proc.child.exitCode !== null) throw new Error(`haproxy exited:\n${proc.output()}`);
    return adminCommand(socket, 'show info').then(
      () => true,
      () => false,
    );
  }, 'haproxy answers on its stats socket');
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    status,
    async stop() {
      if (proc.child.exitCode === null) {
        proc.child.kill('SIGTERM');
        await proc.exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function adminCommand(path: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let out = '';
    socket.on('connect', () => socket.write(`${command}\n`));
    socket.on('data', (chunk) => {
      out += chunk;
    });
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}
