/**
 * `npm run bench:patroni` (issue 30): the benchmark with its database on deploy/patroni as an
 * operator runs it — etcd, a primary and a synchronous standby of PostgreSQL 15 managed by
 * Patroni (`synchronous_mode: true`: each commit waits for the standby's flush), HAProxy to the
 * primary — from the shipped files, as test/failover starts them. The bench itself is
 * `npm run bench` with BENCH_DATABASE_URL set to HAProxy's address (every other BENCH_*
 * variable passes through: BENCH_ONLY, BENCH_PGBOUNCER, …); the database CPU column counts
 * the primary's backends only (the standby's replay is not in it). Run `npm run bench` on the
 * machine's own PostgreSQL beside it for the direct figures.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import {
  isPrimary,
  isSyncStandby,
  type PatroniNode,
  patroniBase,
  patroniMissing,
  patroniNode,
  postmasterPid,
  startEtcd,
  startPatroni,
  startPgHaProxy,
} from '../test/fleet/patroni.js';
import { until } from '../test/helpers/wait.js';

if (patroniMissing.length > 0) {
  console.error(`bench:patroni needs ${patroniMissing.join(', ')} (apt-get install -y …)`);
  process.exit(1);
}

const etcd = await startEtcd();
const base = patroniBase();
const nodes: PatroniNode[] = [];
let haproxy: Awaited<ReturnType<typeof startPgHaProxy>> | undefined;
let status = 1;
try {
  const passwords = {
    superuser: randomBytes(12).toString('hex'),
    replication: randomBytes(12).toString('hex'),
    rewind: randomBytes(12).toString('hex'),
  };
  const scope = `bench-${randomBytes(3).toString('hex')}`;
  nodes.push(await patroniNode(1, etcd, scope, base, passwords));
  nodes.push(await patroniNode(2, etcd, scope, base, passwords));
  startPatroni(nodes[0]!);
  await until(() => isPrimary(nodes[0]!), 'pg1 is the primary', 90_000, 200);
  startPatroni(nodes[1]!);
  await until(() => isSyncStandby(nodes[1]!), 'pg2 is the synchronous standby', 120_000, 200);
  haproxy = await startPgHaProxy(nodes);
  const url = `postgres://postgres:${passwords.superuser}@127.0.0.1:${haproxy.port}/postgres`;
  console.log(
    `bench:patroni: pg1 primary, pg2 synchronous standby, HAProxy on 127.0.0.1:${haproxy.port}`,
  );
  const bench = spawn('npm', ['run', 'bench'], {
    env: { ...process.env, BENCH_DATABASE_URL: url },
    stdio: 'inherit',
  });
  status = await new Promise<number>((resolve) => bench.on('exit', (code) => resolve(code ?? 1)));
  // Still a synchronous standby at the end: every commit of the run waited for it.
  console.log(
    `bench:patroni: pg2 still the synchronous standby: ${await isSyncStandby(nodes[1]!)}`,
  );
} finally {
  await haproxy?.stop();
  for (const node of nodes) if (node.proc?.child.exitCode === null) node.proc.child.kill('SIGTERM');
  await Promise.all(nodes.map((n) => n.proc?.exited));
  for (const node of nodes) {
    const pid = postmasterPid(node);
    if (pid) process.kill(pid, 'SIGKILL');
  }
  await etcd.stop();
  rmSync(base, { recursive: true, force: true });
}
process.exit(status);
