import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../helpers/process.js';
import { until } from '../helpers/wait.js';
import { type Proc, spawnProc } from './cluster.js';

/**
 * deploy/patroni/ run as an operator runs it: etcd from etcd.yml, two Patroni nodes from
 * patroni-pg1.yml and patroni-pg2.yml (as user postgres), HAProxy from haproxy.cfg. Only
 * ports, data dirs and passwords change, through the variables the files name.
 */
export const PATRONI_DIR = 'deploy/patroni';
export const ETCD_YML = `${PATRONI_DIR}/etcd.yml`;
export const PG_HAPROXY_CFG = `${PATRONI_DIR}/haproxy.cfg`;
export const patroniYml = (n: 1 | 2) => `${PATRONI_DIR}/patroni-pg${n}.yml`;
/** Each node's own loopback address, as the shipped files have it. */
export const NODE_HOST = { 1: '127.0.0.2', 2: '127.0.0.3' } as const;

const found = (paths: string[], arg: string) =>
  paths.find((path) => spawnSync(path, [arg]).status === 0);
export const ETCD = found(['/usr/bin/etcd'], '--version');
export const PATRONI = found(['/usr/bin/patroni'], '--version');
export const PATRONICTL = found(['/usr/bin/patronictl'], '--help');
export const PG_BIN = '/usr/lib/postgresql/15/bin';
const pgInstalled = spawnSync(`${PG_BIN}/postgres`, ['--version']).status === 0;
export const HAPROXY = found(['/usr/sbin/haproxy', '/usr/bin/haproxy'], '-v');

/** What deploy/patroni/ needs that is not installed (Debian's package names). */
export const patroniMissing = [
  ETCD ? '' : 'etcd-server',
  PATRONI && PATRONICTL ? '' : 'patroni',
  pgInstalled ? '' : 'postgresql-15',
  HAPROXY ? '' : 'haproxy',
].filter(Boolean);

/** The user PostgreSQL runs as (Patroni and PostgreSQL refuse root). */
function postgresUser(): { uid: number; gid: number; home: string } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no user postgres (apt-get install -y postgresql-15)');
  const [, , uid, gid, , home] = line.split(':');
  return { uid: Number(uid), gid: Number(gid), home };
}

/** A scratch folder the postgres user owns (mode 700 unless said). */
export function postgresDir(prefix: string, mode = 0o700): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const user = postgresUser();
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, mode);
  return dir;
}

/** Replaces a line of a shipped file; throws when the file has no such line. */
function replaceLine(file: string, text: string, pattern: RegExp, by: string): string {
  if (!pattern.test(text)) throw new Error(`${file}: no line ${pattern}`);
  return text.replace(pattern, by);
}

export interface Etcd {
  /** host:port for Patroni's etcd3 hosts. */
  hosts: string;
  proc: Proc;
  stop(): Promise<void>;
}

/** etcd from deploy/patroni/etcd.yml with its data dir and two ports replaced. */
export async function startEtcd(): Promise<Etcd> {
  if (!ETCD) throw new Error('etcd is not installed (apt-get install -y etcd-server)');
  const dir = mkdtempSync(join(tmpdir(), 'etcd-'));
  const client = await freePort();
  const peer = await freePort();
  let yml = readFileSync(ETCD_YML, 'utf8');
  yml = replaceLine(ETCD_YML, yml, /^data-dir: .*$/m, `data-dir: ${join(dir, 'data')}`);
  yml = yml.replaceAll('127.0.0.1:2379', `127.0.0.1:${client}`);
  yml = yml.replaceAll('127.0.0.1:2380', `127.0.0.1:${peer}`);
  const file = join(dir, 'etcd.yml');
  writeFileSync(file, yml);
  const proc = spawnProc(ETCD, ['--config-file', file], { PATH: process.env.PATH });
  const hosts = `127.0.0.1:${client}`;
  await until(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`etcd exited:\n${proc.output()}`);
      // The v3 JSON gateway Patroni uses (not only /health).
      return fetch(`http://${hosts}/v3/cluster/member/list`, { method: 'POST', body: '{}' }).then(
        (r) => r.ok,
        () => false,
      );
    },
    'etcd answers on its v3 gateway',
    20_000,
    50,
  ).catch((error) => {
    // Not left running when it never became usable.
    proc.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    hosts,
    proc,
    async stop() {
      if (proc.child.exitCode === null) {
        proc.child.kill('SIGTERM');
        await proc.exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PatroniNode {
  n: 1 | 2;
  name: string;
  host: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
  proc: Proc | undefined;
  history: Proc[];
  env: Record<string, string>;
}

export interface Passwords {
  superuser: string;
  replication: string;
  rewind: string;
}

/** A node's ports and folders; `startPatroni` runs it. */
export async function patroniNode(
  n: 1 | 2,
  etcd: Etcd,
  scope: string,
  base: string,
  passwords: Passwords,
): Promise<PatroniNode> {
  const host = NODE_HOST[n];
  const pgPort = await freePort();
  const restPort = await freePort();
  const dataDir = join(base, `pg${n}`);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: base,
    LANG: 'C.UTF-8',
    PATRONI_SCOPE: scope,
    PATRONI_ETCD3_HOSTS: etcd.hosts,
    PATRONI_RESTAPI_LISTEN: `${host}:${restPort}`,
    PATRONI_RESTAPI_CONNECT_ADDRESS: `${host}:${restPort}`,
    PATRONI_POSTGRESQL_LISTEN: `${host}:${pgPort}`,
    PATRONI_POSTGRESQL_CONNECT_ADDRESS: `${host}:${pgPort}`,
    PATRONI_POSTGRESQL_DATA_DIR: dataDir,
    PATRONI_POSTGRESQL_PGPASS: join(base, `pg${n}.pgpass`),
    PATRONI_SUPERUSER_PASSWORD: passwords.superuser,
    PATRONI_REPLICATION_PASSWORD: passwords.replication,
    PATRONI_REWIND_PASSWORD: passwords.rewind,
  };
  return {
    n,
    name: `pg${n}`,
    host,
    pgPort,
    restPort,
    dataDir,
    proc: undefined,
    history: [],
    env,
  };
}

/** Starts (or restarts) Patroni for `node`, as the postgres user, from the shipped file. */
export function startPatroni(node: PatroniNode): Proc {
  if (!PATRONI) throw new Error('patroni is not installed (apt-get install -y patroni)');
  const user = postgresUser();
  // The shipped file, copied unchanged beside the node's data dir and run from there: the
  // postgres user may not reach the checkout (a clone under a mode-700 folder, as mktemp -d
  // makes), and Patroni then never brought its node up.
  const dir = dirname(node.dataDir);
  const yml = join(dir, `patroni-pg${node.n}.yml`);
  copyFileSync(patroniYml(node.n), yml);
  chmodSync(yml, 0o644);
  const proc = spawnProc(
    PATRONI,
    [yml],
    node.env,
    user && { uid: user.uid, gid: user.gid, cwd: dir },
  );
  node.proc = proc;
  node.history.push(proc);
  return proc;
}

/** The postmaster's pid (postmaster.pid's first line), or undefined when none runs. */
export function postmasterPid(node: PatroniNode): number | undefined {
  try {
    const pid = Number(readFileSync(join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/**
 * The pid of the node's walreceiver (a standby's), found among its postmaster's children once
 * it streams: after its primary restarts, a standby's walreceiver is gone until PostgreSQL
 * starts a new one (`wal_retrieve_retry_interval`, 5 s), and a test that came right after
 * such a restart found none.
 */
export async function walreceiverPid(node: PatroniNode, timeoutMs = 30_000): Promise<number> {
  let seen = '';
  let pid: number | undefined;
  await until(
    () => {
      const postmaster = postmasterPid(node);
      if (!postmaster) return false;
      const ps = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(postmaster)], {
        encoding: 'utf8',
      });
      seen = ps.stdout;
      const line = ps.stdout.split('\n').find((l) => /walreceiver streaming/.test(l));
      pid = line ? Number(line.trim().split(/\s+/)[0]) : undefined;
      return pid !== undefined;
    },
    `${node.name}: a streaming walreceiver`,
    timeoutMs,
    100,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; its postmaster's children:\n${seen}`);
  });
  return pid!;
}

/**
 * How far the node is behind the primary's last WAL position in etcd, in bytes, as Patroni
 * judges it for a failover (its REST `/cluster`); -1 when unknown.
 */
export async function lagBytes(node: PatroniNode): Promise<number> {
  try {
    const answer = await fetch(`http://${node.host}:${node.restPort}/cluster`, {
      signal: AbortSignal.timeout(2000),
    });
    const body = (await answer.json()) as { members: { name: string; lag?: unknown }[] };
    const lag = body.members.find((m) => m.name === node.name)?.lag;
    return typeof lag === 'number' ? lag : -1;
  } catch {
    return -1;
  }
}

/** Patroni's role for the node from its REST API: 'primary', 'replica', … or 'down'. */
export async function restRole(node: PatroniNode): Promise<{ role: string; state: string }> {
  try {
    const answer = await fetch(`http://${node.host}:${node.restPort}/patroni`, {
      signal: AbortSignal.timeout(2000),
    });
    const body = (await answer.json()) as { role?: string; state?: string };
    return { role: body.role ?? 'unknown', state: body.state ?? 'unknown' };
  } catch {
    return { role: 'down', state: 'down' };
  }
}

/** Whether the node is the writable primary (the check HAProxy makes). */
export async function isPrimary(node: PatroniNode): Promise<boolean> {
  return fetch(`http://${node.host}:${node.restPort}/primary`, {
    method: 'OPTIONS',
    signal: AbortSignal.timeout(2000),
  }).then(
    (r) => r.status === 200,
    () => false,
  );
}

/**
 * Whether the node is the synchronous standby: by its own REST `/sync`, and by the key in etcd
 * (below).
 */
export async function isSyncStandby(node: PatroniNode): Promise<boolean> {
  const rest = await fetch(`http://${node.host}:${node.restPort}/sync`, {
    method: 'GET',
    signal: AbortSignal.timeout(2000),
  }).then(
    (r) => r.status === 200,
    () => false,
  );
  return rest && (await syncStandbyInEtcd(node)) === node.name;
}

/**
 * The synchronous standby named by Patroni's `/sync` key, read from etcd itself: what a failover
 * decides by. A node's REST `/sync` answers from its own copy of the key, refreshed every
 * `loop_wait`. A promoted primary clears the key and names its standby again a few seconds
 * later, once the standby streams as synchronous. Right after case (a)'s restart, the
 * standby's copy still named it while the key was clear. A failure in that window leaves the
 * cluster with no primary, by design (the primary ran without a synchronous standby), and a CI
 * run whose next case killed the primary then saw exactly that.
 */
export async function syncStandbyInEtcd(node: PatroniNode): Promise<string | undefined> {
  const key = Buffer.from(`/service/${node.env.PATRONI_SCOPE}/sync`).toString('base64');
  try {
    const answer = await fetch(`http://${node.env.PATRONI_ETCD3_HOSTS}/v3/kv/range`, {
      method: 'POST',
      body: JSON.stringify({ key }),
      signal: AbortSignal.timeout(2000),
    });
    const body = (await answer.json()) as { kvs?: { value: string }[] };
    const value = body.kvs?.[0]?.value;
    if (!value) return undefined;
    const sync = JSON.parse(Buffer.from(value, 'base64').toString()) as { sync_standby?: unknown };
    return typeof sync.sync_standby === 'string' ? sync.sync_standby : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `patronictl` against the node's configuration (as root: it only talks to etcd and REST).
 * A process of its own, awaited: the test's load clients go on meanwhile.
 */
export async function patronictl(
  node: PatroniNode,
  args: string[],
): Promise<{ status: number | null; output: string }> {
  if (!PATRONICTL) throw new Error('patronictl is not installed (apt-get install -y patroni)');
  const proc = spawnProc(PATRONICTL, ['-c', patroniYml(node.n), ...args], node.env);
  const [status] = await proc.exited;
  return { status, output: proc.output() };
}

export interface PgHaProxy {
  port: number;
  proc: Proc;
  stop(): Promise<void>;
}

/** HAProxy from deploy/patroni/haproxy.cfg as shipped, with its variables set. */
export async function startPgHaProxy(nodes: PatroniNode[]): Promise<PgHaProxy> {
  if (!HAPROXY) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
  const port = await freePort();
  const env = { PATH: process.env.PATH, ...pgHaProxyEnv(port, nodes) };
  const check = spawnSync(HAPROXY, ['-c', '-f', PG_HAPROXY_CFG], { env, encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c: ${check.stdout}${check.stderr}`);
  const proc = spawnProc(HAPROXY, ['-db', '-f', PG_HAPROXY_CFG], env);
  await until(async () => {
    if (proc.child.exitCode !== null) throw new Error(`haproxy exited:\n${proc.output()}`);
    return true;
  }, 'haproxy runs');
  return {
    port,
    proc,
    async stop() {
      if (proc.child.exitCode === null) {
        proc.child.kill('SIGTERM');
        await proc.exited;
      }
    },
  };
}

/** The variables deploy/patroni/haproxy.cfg names. */
export function pgHaProxyEnv(port: number, nodes: PatroniNode[]): Record<string, string> {
  const env: Record<string, string> = { PG_BIND: `127.0.0.1:${port}` };
  for (const node of nodes) {
    env[`PG${node.n}_ADDRESS`] = `${node.host}:${node.pgPort}`;
    env[`PG${node.n}_REST_PORT`] = String(node.restPort);
  }
  return env;
}

/** A folder for the nodes' data dirs (and their HOME), owned by postgres. */
export const patroniBase = () => postgresDir('patroni-', 0o755);
