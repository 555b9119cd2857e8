import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './process.js';

/** The shipped configuration: tests start PgBouncer from exactly this file. */
export const PGBOUNCER_INI = 'deploy/pgbouncer/pgbouncer.ini';

const BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find(
  (path) => spawnSync(path, ['--version']).status === 0,
);

/** True when Debian's pgbouncer is installed (`.ci/run` installs it). */
export const pgbouncerInstalled = BINARY !== undefined;

/** TEST_PGBOUNCER=1: the suite's databases are opened through PgBouncer (test/helpers/db.ts). */
export const viaPgBouncer = process.env.TEST_PGBOUNCER === '1';

export interface PgBouncer {
  port: number;
  /** `url` (a database on the server) as a client of this PgBouncer reaches it. */
  urlFor(url: string): string;
  /** Everything PgBouncer logged so far. */
  log(): string;
  /**
   * Sends every database to `server` from now on (its [databases] line rewritten, then
   * RELOAD: SIGHUP), as an operator does when the database's address changes.
   */
  retarget(server: string): void;
  stop(): Promise<void>;
}

/**
 * PgBouncer from deploy/pgbouncer/pgbouncer.ini, changed only where a test must: its port,
 * its files (in a scratch folder) and the [databases] line, which sends every database name
 * to `server` (`poolSize`: server connections per database, e.g. fewer than the app's pool so
 * that transactions switch connections). PgBouncer logs in to the server with `server`'s
 * password when it has one (a random one otherwise: a server that trusts loopback).
 */
export async function startPgBouncer(server: string, poolSize?: number): Promise<PgBouncer> {
  if (!BINARY) throw new Error('pgbouncer is not installed (apt-get install -y pgbouncer)');
  const target = new URL(server);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  // PgBouncer refuses to run as root: it runs as `postgres`, which must reach its files.
  chmodSync(dir, 0o777);
  const user = decodeURIComponent(target.username || 'postgres');
  const password = target.password
    ? decodeURIComponent(target.password)
    : randomBytes(12).toString('hex');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
  const replace = (text: string, pattern: RegExp, line: string) => {
    if (!pattern.test(text)) throw new Error(`${PGBOUNCER_INI}: no line ${pattern}`);
    return text.replace(pattern, line);
  };
  const shipped = readFileSync(PGBOUNCER_INI, 'utf8');
  const databases = (to: URL) =>
    `* = host=${to.hostname} port=${to.port || 5432}${poolSize ? ` pool_size=${poolSize}` : ''}`;
  let ini = replace(shipped, /^ordering = .*$/m, databases(target));
  ini = replace(ini, /^logfile = .*$/m, `logfile = ${join(dir, 'pgbouncer.log')}`);
  ini = replace(ini, /^pidfile = .*$/m, `pidfile = ${join(dir, 'pgbouncer.pid')}`);
  ini = replace(ini, /^listen_addr = .*$/m, 'listen_addr = 127.0.0.1');
  ini = replace(ini, /^listen_port = .*$/m, `listen_port = ${port}`);
  ini = replace(ini, /^unix_socket_dir = .*$/m, `unix_socket_dir = ${dir}`);
  ini = replace(ini, /^auth_file = .*$/m, `auth_file = ${join(dir, 'userlist.txt')}`);
  const file = join(dir, 'pgbouncer.ini');
  writeFileSync(file, ini, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(BINARY, asRoot ? ['-u', 'postgres', file] : [file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  const log = () => {
    try {
      return output + readFileSync(join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return output;
    }
  };
  for (let i = 0; !(await accepts(port)); i++) {
    if (child.exitCode !== null || i > 200) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not start:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    port,
    urlFor(url: string) {
      const via = new URL(url);
      via.hostname = '127.0.0.1';
      via.port = String(port);
      via.username = encodeURIComponent(user);
      via.password = password;
      return via.toString();
    },
    log,
    retarget(to: string) {
      writeFileSync(file, ini.replace(/^\* = host=.*$/m, databases(new URL(to))), { mode: 0o644 });
      child.kill('SIGHUP');
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
