import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The low end of the kernel's range for the local ports of outgoing connections (and of
 * `listen(0)`), read once; undefined where there is no such file.
 */
const EPHEMERAL_LOW = (() => {
  try {
    const low = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return low > 0 ? low : undefined;
  } catch {
    return undefined;
  }
})();

const handedOut = new Set<number>();

async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * A port nothing listens on right now, for a process the test starts. Picked at random below
 * the kernel's ephemeral range: a port from `listen(0)` is in that range, and between its
 * check and the child's bind an outgoing connection of any process on the machine could take
 * it as its local port (a CI run's service once exited with EADDRINUSE so). Below the range
 * only another explicit bind can take it. Never the same port twice in one process.
 */
export async function freePort(): Promise<number> {
  if (EPHEMERAL_LOW && EPHEMERAL_LOW > 11_000) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = 10_000 + Math.floor(Math.random() * (EPHEMERAL_LOW - 10_000));
      if (handedOut.has(port) || !(await bindable(port))) continue;
      handedOut.add(port);
      return port;
    }
  }
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The newest PostgreSQL server binaries of Debian's packages (initdb, pg_ctl, …), if any. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  for (const version of readdirSync(root).sort().reverse()) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  return undefined;
}

/**
 * `npm start`'s command as package.json has it (`node … dist/src/main.js`), its
 * `${VAR:-default}` and `${VAR:+word}` expanded from `env` as sh does: tests start the service
 * exactly as production does, as a node process of its own (a signal reaches the service, not
 * npm). The first word is this test's node (the project's own).
 */
export function startCommand(env: Record<string, string | undefined>): string[] {
  const script: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start;
  const expanded = script.replace(
    /\$\{(\w+):([-+])([^}]*)\}/g,
    (_, name: string, kind: string, word: string) =>
      kind === '-' ? env[name] || word : env[name] ? word : '',
  );
  const words = expanded.split(/\s+/).filter(Boolean);
  if (words[0] !== 'node') throw new Error(`npm start is not a node command: ${script}`);
  return [process.execPath, ...words.slice(1)];
}

/** The node flags of `npm start` for `env` (its command without node and the main module). */
export function startFlags(env: Record<string, string | undefined>): string[] {
  return startCommand(env).slice(1, -1);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end: its exit code and what it wrote to stdout and stderr. */
export function runProcess(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface WatchedProcess {
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code and signal. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

export interface ServiceProcess extends WatchedProcess {
  url: string;
}

/** Starts a command, keeping what it writes to stdout and stderr. */
export function spawnWatched(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): WatchedProcess {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, output: () => output, exited };
}

/** How `npm start` runs the service: the build of test/helpers/global-setup.ts, with plain node. */
export const SERVICE_MAIN = 'dist/src/main.js';

/**
 * The service in a process of its own, started as `npm start` starts it (`node
 * dist/src/main.js`), on `port`; resolves once `readyPath` answers 2xx. `nodeArgs` go before
 * the script (npm start's heap limits, say).
 */
export async function startServiceProcess(
  env: NodeJS.ProcessEnv,
  port: number,
  readyPath = '/healthz',
  nodeArgs: string[] = [],
): Promise<ServiceProcess> {
  const url = `http://127.0.0.1:${port}`;
  const { child, output, exited } = spawnWatched(
    process.execPath,
    [...nodeArgs, SERVICE_MAIN],
    // No drain unless a test asks for one: SIGTERM without a balancer in front need not wait
    // for one to notice (test/drain.test.ts and the fleet test run the drain as configured).
    { SHUTDOWN_DRAIN_MS: '0', ...env, PORT: String(port) },
  );
  for (let i = 0; ; i++) {
    const ok = await fetch(url + readyPath).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600 || child.exitCode !== null) throw new Error(`service did not start: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url, output, exited };
}
