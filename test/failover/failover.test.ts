import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT, DEMO_USERS } from '../../erp-simulator/data.js';
import {
  type Instance,
  instanceEnv,
  type Proc,
  spawnProc,
  startInstance,
  startSimulatorProcess,
} from '../fleet/cluster.js';
import { expectConsistent } from '../fleet/consistency.js';
import { Load, type Tally, type User } from '../fleet/load.js';
import {
  type Etcd,
  isPrimary,
  isSyncStandby,
  lagBytes,
  type PatroniNode,
  type PgHaProxy,
  patroniBase,
  patronictl,
  patroniMissing,
  patroniNode,
  postmasterPid,
  startEtcd,
  startPatroni,
  startPgHaProxy,
  syncStandbyInEtcd,
  walreceiverPid,
} from '../fleet/patroni.js';
import { type PgBouncer, pgbouncerInstalled, startPgBouncer } from '../helpers/pgbouncer.js';
import { freePort } from '../helpers/process.js';
import { redisServerAvailable, ThrowawayRedis } from '../helpers/redis-server.js';
import { until } from '../helpers/wait.js';

/**
 * Issue 30: the database fails over under load, and nothing is lost. deploy/patroni/ as an
 * operator runs it — etcd, two Patroni-managed PostgreSQL 15 nodes (initdb by Patroni, as
 * user postgres) in synchronous mode, HAProxy to the primary — with a PgBouncer per instance
 * from deploy/pgbouncer/pgbouncer.ini (transaction mode) in front of HAProxy, a redis-server,
 * the ERP simulator and two instances started as production starts them. Clients add items
 * with Idempotency-Key (retrying as a phone does) and check out, a reader per instance lists
 * carts, throughout: (a) the primary's postmaster SIGKILLed; (b) its Patroni and postmaster
 * SIGKILLed while its standby is tens of MB of unacknowledged WAL behind; (d) the old primary back, as a standby (pg_rewind); (c) a planned switchover;
 * (e) one instance's PgBouncer pointing at the old primary after a switchover (a stale
 * endpoint), then RELOADed with the right host. Per case: the write window, failures by cause,
 * zero 500s, every acknowledged write there after, one order and one record per 200
 * checkout, the instances never restarted. `npm run test:failover`; prints a table.
 */

const CLIENTS = Number(process.env.FAILOVER_CLIENTS ?? 4); // per instance
const STORE = '4012345000009';
/** Targets with the shipped settings (issue 30): writes back after the fault within. */
const UNPLANNED_MS = 20_000;
const PLANNED_MS = 5_000;

const missing = [
  ...patroniMissing,
  pgbouncerInstalled ? '' : 'pgbouncer',
  redisServerAvailable ? '' : 'redis-server',
].filter(Boolean);
if (missing.length > 0) {
  console.log(
    `failover test skipped: ${missing.join(', ')} missing (apt-get install -y ${missing.join(' ')}; .ci/run installs them)`,
  );
}

const anne = DEMO_USERS.find((u) => u.username === 'anna')!;

interface CaseFigures {
  case: string;
  writesBackMs: number;
  firstFailedWriteMs: number;
  writeWindowMs: number;
  failedWrites: number;
  failedReads: number;
  requests: number;
  failuresByCause: Record<string, number>;
  acknowledgedQuantity: number;
  checkouts: number;
  [more: string]: unknown;
}

/**
 * The failed writes' window after `from` (first to last failed write) and when writes were
 * back (the first successful write after the last failed one), over every tally.
 */
function windowOf(tallies: Tally[], from: number) {
  const events = tallies.flatMap((t) => t.events).filter((e) => e.at >= from);
  const failedWrites = events.filter((e) => e.write && e.failed);
  const failedReads = events.filter((e) => !e.write && e.failed).length;
  if (failedWrites.length === 0)
    return {
      writesBackMs: 0,
      firstFailedWriteMs: 0,
      writeWindowMs: 0,
      failedWrites: 0,
      failedReads,
    };
  const first = Math.min(...failedWrites.map((e) => e.at));
  const last = Math.max(...failedWrites.map((e) => e.at));
  const back = events.filter((e) => e.write && !e.failed && e.at > last).map((e) => e.at);
  return {
    writesBackMs: (back.length > 0 ? Math.min(...back) : Number.NaN) - from,
    firstFailedWriteMs: first - from,
    writeWindowMs: last - first,
    failedWrites: failedWrites.length,
    failedReads,
  };
}

describe.skipIf(missing.length > 0)(
  'a failover of the database (deploy/patroni/) under load',
  () => {
    let etcd: Etcd | undefined;
    let base = '';
    const nodes: PatroniNode[] = [];
    let pgProxy: PgHaProxy | undefined;
    const bouncers: PgBouncer[] = [];
    let redis: ThrowawayRedis | undefined;
    let sim: Proc | undefined;
    let simUrl = '';
    let appUrl = '';
    const instances: Instance[] = [];
    let anna: User;
    let passwords = { superuser: '', replication: '', rewind: '' };
    const table: CaseFigures[] = [];

    const primary = async () => {
      for (const node of nodes) if (await isPrimary(node)) return node;
      return undefined;
    };
    const other = (node: PatroniNode) => nodes.find((n) => n !== node)!;
    const nodeUrl = (node: PatroniNode) => {
      const url = new URL(appUrl);
      url.hostname = node.host;
      url.port = String(node.pgPort);
      return url.toString();
    };

    function output(): string {
      const procs = [
        ...nodes.flatMap((n) => n.history.map((p, i) => [`${n.name} #${i + 1}`, p] as const)),
        ...instances.flatMap((n) => n.history.map((p, i) => [`${n.name} #${i + 1}`, p] as const)),
      ];
      return [
        ...procs.map(([name, p]) => `--- ${name}\n${p.output().slice(-2500)}`),
        ...bouncers.map((b, i) => `--- pgbouncer ${i + 1}\n${b.log().slice(-2500)}`),
      ].join('\n');
    }

    /**
     * What a case that never came back looked like: each load's writes since the fault and its
     * failures, each node's Patroni state, `patronictl list`, and every process's log tail.
     */
    async function diagnosis(loads: Load[], faultAt: number): Promise<string> {
      const lines = loads.map((load, i) => {
        const events = load.tally.events.filter((e) => e.at >= faultAt);
        const ok = events.filter((e) => e.write && !e.failed).length;
        const failed = events.filter((e) => e.write && e.failed).length;
        const last = events.at(-1);
        return `load ${i + 1}: since the fault ${ok} writes ok, ${failed} failed, last event ${last ? `${last.at - faultAt} ms ${JSON.stringify(last)}` : 'none'}; failures ${JSON.stringify(Object.fromEntries(load.tally.failures))}`;
      });
      for (const node of nodes) {
        const state = await fetch(`http://${node.host}:${node.restPort}/patroni`, {
          signal: AbortSignal.timeout(2000),
        }).then(
          (r) => r.text(),
          (e) => String(e),
        );
        lines.push(`${node.name} REST /patroni: ${state}`);
        const said = (node.proc?.output() ?? '')
          .split('\n')
          .filter((line) => /lag|promot|leader|health|failover|timeline|sync/i.test(line));
        lines.push(`${node.name} Patroni on its role:\n${said.slice(-30).join('\n')}`);
      }
      const list = await patronictl(nodes[0], ['list']).catch((e) => ({ output: String(e) }));
      lines.push(`patronictl list:\n${list.output}`);
      return `${lines.join('\n')}\n${output()}`;
    }

    beforeAll(async () => {
      etcd = await startEtcd();
      base = patroniBase();
      const scope = `ordering-${randomBytes(3).toString('hex')}`;
      passwords = {
        superuser: randomBytes(12).toString('hex'),
        replication: randomBytes(12).toString('hex'),
        rewind: randomBytes(12).toString('hex'),
      };
      nodes.push(await patroniNode(1, etcd, scope, base, passwords));
      nodes.push(await patroniNode(2, etcd, scope, base, passwords));
      // pg1 initialises the cluster (initdb) and leads; pg2 copies it and follows in sync.
      startPatroni(nodes[0]);
      await until(() => isPrimary(nodes[0]), 'pg1 is the primary', 90_000, 200);
      startPatroni(nodes[1]);
      await until(() => isSyncStandby(nodes[1]), 'pg2 is the synchronous standby', 90_000, 200);
      pgProxy = await startPgHaProxy(nodes);

      // The service's role and database, as an operator creates them once (docs/operations.md).
      const appPassword = randomBytes(12).toString('hex');
      let lastError = '';
      let admin = new pg.Client();
      await until(
        async () => {
          // A client connects once: a new one per attempt.
          admin = new pg.Client({
            connectionString: `postgres://postgres:${passwords.superuser}@127.0.0.1:${pgProxy!.port}/postgres`,
          });
          return admin.connect().then(
            () => true,
            (error) => {
              lastError = String(error);
              return false;
            },
          );
        },
        'HAProxy leads to the primary',
        15_000,
        200,
      ).catch((error) => {
        throw new Error(`${error.message}: ${lastError}\n${output()}`);
      });
      await admin.query(`create role ordering login password '${appPassword}'`);
      await admin.query('create database ordering owner ordering');
      await admin.end();
      appUrl = `postgres://ordering:${appPassword}@127.0.0.1:${pgProxy.port}/ordering`;

      redis = new ThrowawayRedis(await freePort());
      await redis.start();
      ({ proc: sim, url: simUrl } = await startSimulatorProcess());
      const site = {
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_MIGRATION_URL: appUrl,
        REDIS_URL: redis.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        UPSTREAM_URL: simUrl,
        UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
        UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
        PUBLIC_URL: 'http://127.0.0.1',
        METRICS_TOKEN: randomBytes(24).toString('hex'),
      };
      for (let i = 1; i <= 2; i++) {
        // Each instance's own PgBouncer (on its host), in front of HAProxy.
        const bouncer = await startPgBouncer(appUrl);
        bouncers.push(bouncer);
        const port = await freePort();
        instances.push({
          name: `app${i}`,
          port,
          url: `http://127.0.0.1:${port}`,
          proc: undefined,
          history: [],
        });
      }
      await Promise.all(
        instances.map((instance, i) =>
          startInstance(
            instance,
            instanceEnv({ ...site, DATABASE_URL: bouncers[i].urlFor(appUrl) }),
          ),
        ),
      );
      const seed = spawnProc(process.execPath, ['bin/ordering-admin.js', 'seed', 'demo'], {
        PATH: process.env.PATH,
        DATABASE_URL: appUrl,
      });
      const [code] = await seed.exited;
      expect(code, seed.output()).toBe(0);
      const login = await fetch(`${instances[0].url}/api/v1/auth/jwt/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: anne.username, password: anne.password }),
      });
      const body = await login.json();
      expect(login.status, JSON.stringify(body)).toBe(200);
      anna = { token: body.token, upstreamToken: body.upstream_token, organization: 'ORG-1001' };
    }, 240_000);

    afterAll(async () => {
      if (table.length > 0) {
        console.log('failover figures:');
        console.table(
          table.map((f) => ({
            case: f.case,
            'writes back (s)': (f.writesBackMs / 1000).toFixed(1),
            'first failure (s)': (f.firstFailedWriteMs / 1000).toFixed(1),
            'write window (s)': (f.writeWindowMs / 1000).toFixed(1),
            'failed writes': f.failedWrites,
            'failed reads': f.failedReads,
            requests: f.requests,
            'acked qty checked': f.acknowledgedQuantity,
            '200 checkouts checked': f.checkouts,
          })),
        );
        console.log(
          `failover causes: ${JSON.stringify(Object.fromEntries(table.map((f) => [f.case, f.failuresByCause])), null, 2)}`,
        );
      }
      for (const instance of instances) instance.proc?.child.kill('SIGKILL');
      await Promise.all(instances.map((i) => i.proc?.exited));
      sim?.child.kill('SIGKILL');
      await redis?.stop();
      for (const bouncer of bouncers) await bouncer.stop();
      await pgProxy?.stop();
      // Patroni stops its PostgreSQL on SIGTERM; a postmaster left alone is killed.
      for (const node of nodes)
        if (node.proc?.child.exitCode === null) node.proc.child.kill('SIGTERM');
      await Promise.all(nodes.map((n) => n.proc?.exited));
      for (const node of nodes) {
        const pid = postmasterPid(node);
        if (pid) process.kill(pid, 'SIGKILL');
      }
      await etcd?.stop();
      if (base) rmSync(base, { recursive: true, force: true });
    }, 120_000);

    /**
     * Load on both instances, `fault` under it, then on until every instance has written
     * `after` times since its last failure (and the cluster has a primary and a sync
     * standby, unless `degraded`): the case's figures, checked.
     */
    async function underLoad(
      name: string,
      fault: () => Promise<void>,
      options: {
        /** Under load, before the fault's instant: what sets the fault up. */
        before?: () => Promise<void>;
        degraded?: boolean;
        backWithinMs?: number;
        windowWithinMs?: number;
        noFailedReads?: boolean;
      } = {},
    ): Promise<CaseFigures> {
      const loads = instances.map(
        (instance, i) =>
          new Load(instance.url, anna, STORE, `${name}-${i}`, {
            retry: true,
            retryMs: 100,
            readers: 1,
          }),
      );
      for (const [i, load] of loads.entries()) load.start(CLIENTS, 1000 * table.length + 10 * i);
      /** The load under way, the fault, and writes back: the fault's instant. */
      const faultUnderLoad = async (): Promise<number> => {
        await until(
          () => loads.every((l) => l.tally.events.filter((e) => e.write && !e.failed).length >= 20),
          'load under way',
          60_000,
        );
        await options.before?.();
        const faultAt = Date.now();
        await fault();
        const after = 40;
        await until(
          async () => {
            for (const load of loads) {
              const events = load.tally.events;
              let lastFailed = events.length - 1;
              while (lastFailed >= 0 && !events[lastFailed].failed) lastFailed--;
              const since = events
                .slice(Math.max(lastFailed + 1, 0))
                .filter((e) => e.write && e.at >= faultAt);
              if (since.length < after) return false;
            }
            const lead = await primary();
            return lead !== undefined && (options.degraded || (await isSyncStandby(other(lead))));
          },
          `${name}: writes back on every instance`,
          90_000,
          100,
        ).catch(async (error) => {
          throw new Error(`${error.message}\n${await diagnosis(loads, faultAt)}`);
        });
        return faultAt;
      };
      // A case that fails stops its load: left running, it would write on under the next
      // cases and fail their checks too.
      const faultAt = await faultUnderLoad().catch(async (error) => {
        await Promise.all(loads.map((l) => l.stop()));
        throw error;
      });
      const tallies = await Promise.all(loads.map((l) => l.stop()));
      const window = windowOf(tallies, faultAt);
      const causes: Record<string, number> = {};
      for (const tally of tallies) {
        for (const [cause, n] of tally.failures) causes[cause] = (causes[cause] ?? 0) + n;
      }
      const figures: CaseFigures = {
        case: name,
        ...window,
        requests: tallies.reduce((sum, t) => sum + t.requests, 0),
        failuresByCause: causes,
        acknowledgedQuantity: 0,
        checkouts: 0,
      };
      table.push(figures);
      // Every failure is the service's 503 with Retry-After (or a checkout's 409 "in
      // progress", which a client retries for its record): no 500, no cut, no other status.
      const notRetryable = Object.keys(causes).filter(
        (c) => !/: (503 database_unavailable|409 checkout_in_progress)$/.test(c),
      );
      expect(notRetryable, `${JSON.stringify(causes)}\n${output()}`).toEqual([]);
      const db = new pg.Client({ connectionString: appUrl });
      await db.connect();
      try {
        for (const tally of tallies) {
          const checked = await expectConsistent(db, simUrl, tally);
          figures.acknowledgedQuantity += checked.acknowledgedQuantity;
          figures.checkouts += checked.checkoutsWithOneOrderAndOneRecord;
        }
      } finally {
        await db.end();
      }
      console.log(`failover ${name}: ${JSON.stringify(figures)}`);
      // No instance restarted (nor exited).
      for (const instance of instances) {
        expect(instance.history, instance.name).toHaveLength(1);
        expect(instance.proc?.child.exitCode, instance.name).toBeNull();
      }
      if (options.backWithinMs !== undefined)
        expect(window.writesBackMs).toBeLessThanOrEqual(options.backWithinMs);
      if (options.windowWithinMs !== undefined)
        expect(window.writeWindowMs).toBeLessThanOrEqual(options.windowWithinMs);
      if (options.noFailedReads) expect(window.failedReads).toBe(0);
      return figures;
    }

    it("(a) the primary's postmaster SIGKILLed: Patroni restarts it; writes back within 20 s", async () => {
      const lead = (await primary())!;
      expect(lead.name).toBe('pg1');
      await underLoad(
        'a: postmaster SIGKILLed',
        async () => {
          process.kill(postmasterPid(lead)!, 'SIGKILL');
        },
        { backWithinMs: UNPLANNED_MS },
      );
    }, 180_000);

    let killed: PatroniNode | undefined;
    /** SIGCONT to a stopped process, if it is still there. */
    const resume = (pid: number | undefined) => {
      try {
        if (pid) process.kill(pid, 'SIGCONT');
      } catch {}
    };

    // The standby is tens of MB behind the primary's last WAL position in etcd when the primary
    // dies: WAL of a bulk transaction never committed, which a paused walreceiver did not take
    // (what a slow standby disk does under a burst of WAL; a CI run saw the cluster stay with
    // no primary after this kill). With Patroni's default maximum_lag_on_failover (1 MB) the
    // standby never promotes itself; deploy/patroni/ ships 1 GiB (synchronous mode: the standby
    // has every acknowledged commit).
    it("(b) the primary's Patroni and postmaster SIGKILLed, its standby MBs of unacknowledged WAL behind: the standby is promoted; writes back within 20 s", async () => {
      const lead = (await primary())!;
      const standby = other(lead);
      let walreceiver: number | undefined;
      let ballast: pg.Client | undefined;
      try {
        await underLoad(
          'b: Patroni + postmaster SIGKILLed',
          async () => {
            const pid = postmasterPid(lead)!;
            lead.proc!.child.kill('SIGKILL');
            process.kill(pid, 'SIGKILL');
            killed = lead;
            // Its backends end with their postmaster (before Patroni starts it again in d).
            await lead.proc!.exited;
            resume(walreceiver);
          },
          {
            backWithinMs: UNPLANNED_MS,
            degraded: true,
            before: async () => {
              walreceiver = await walreceiverPid(standby);
              process.kill(walreceiver, 'SIGSTOP');
              ballast = new pg.Client({
                connectionString: `postgres://postgres:${passwords.superuser}@127.0.0.1:${pgProxy!.port}/postgres`,
              });
              ballast.on('error', () => {}); // its primary is killed under it
              await ballast.connect();
              await ballast.query('begin');
              await ballast.query('create table ballast (b text)');
              // About 64 MB of WAL (rows of 1 kB), never committed.
              await ballast.query(
                'insert into ballast select repeat(md5(g::text), 32) from generate_series(1, 65536) g',
              );
              await until(
                async () => (await lagBytes(standby)) > 32 * 2 ** 20,
                `${standby.name} over 32 MB behind the primary's position in etcd`,
                20_000,
                100,
              );
              // Else Patroni rightly never promotes it: the primary may have acknowledged
              // commits it lacks.
              expect(await syncStandbyInEtcd(standby)).toBe(standby.name);
            },
          },
        );
      } finally {
        resume(walreceiver);
        await ballast?.end().catch(() => {});
      }
      expect((await primary())?.name).toBe(standby.name);
    }, 180_000);

    it('(d) the old primary returns as a standby (pg_rewind) while writes go on', async () => {
      const back = killed;
      if (!back) throw new Error('case (b) killed no primary');
      const figures = await underLoad('d: old primary rejoins', async () => {
        // Its backends outlive a SIGKILLed postmaster for a moment: wait them out.
        await until(
          () => postmasterPid(back) === undefined,
          'the old postmaster gone',
          10_000,
          100,
        );
        startPatroni(back);
        await until(
          () => isSyncStandby(back),
          `${back.name} is the synchronous standby again`,
          90_000,
          200,
        );
      });
      expect(figures.failedWrites).toBe(0);
      // What Patroni said about rewinding the old primary (printed: it may not need to).
      const rewind = back
        .proc!.output()
        .split('\n')
        .filter((line) => /rewind/i.test(line));
      console.log(
        `failover d: Patroni on ${back.name} about rewind:\n${rewind.slice(0, 8).join('\n')}`,
      );
    }, 180_000);

    // Reads: none failed. A read cut by the switchover, or finding no primary reachable, is
    // sent again with a growing pause within its own bound (src/db/pool.ts, readOnce); sent
    // once more at once, 0, 20, 26 and 63 of 700-1,550 requests had failed in four runs.
    it('(c) a planned switchover (patronictl switchover): writes fail for 5 s at most, no read fails', async () => {
      const lead = (await primary())!;
      const to = other(lead);
      await underLoad(
        'c: switchover',
        async () => {
          const run = await patronictl(lead, [
            'switchover',
            '--leader',
            lead.name,
            '--candidate',
            to.name,
            '--force',
          ]);
          expect(run.status, run.output).toBe(0);
        },
        { windowWithinMs: PLANNED_MS, noFailedReads: true },
      );
      expect((await primary())?.name).toBe(to.name);
    }, 180_000);

    it('(e) a stale endpoint: an instance whose PgBouncer still points at the old primary answers 503s, and recovers once RELOADed with the right host', async () => {
      const lead = (await primary())!;
      const to = other(lead);
      // app2's PgBouncer reaches the primary by its own address, as a managed service's DNS
      // name does, cached.
      bouncers[1].retarget(nodeUrl(lead));
      const stale = instances[1];
      let readyzWhileStale = 0;
      const figures = await underLoad('e: stale endpoint', async () => {
        const run = await patronictl(lead, [
          'switchover',
          '--leader',
          lead.name,
          '--candidate',
          to.name,
          '--force',
        ]);
        expect(run.status, run.output).toBe(0);
        // The old primary is back as a standby; app2 still reaches it: its writes are 503s,
        // and it is not ready.
        await until(() => isSyncStandby(lead), `${lead.name} a standby`, 60_000, 100);
        await until(
          () =>
            fetch(`${stale.url}/readyz`).then(
              (r) => r.status === 503,
              () => false,
            ),
          'app2 not ready while it reaches a standby',
          15_000,
          100,
        );
        readyzWhileStale = 503;
        // The operator (or the DNS name's next answer) fixes the address: RELOAD.
        bouncers[1].retarget(nodeUrl(to));
      });
      expect(readyzWhileStale).toBe(503);
      expect(figures.failedWrites).toBeGreaterThan(0);
      await until(
        () =>
          fetch(`${stale.url}/readyz`).then(
            (r) => r.status === 200,
            () => false,
          ),
        'app2 ready again by itself',
        15_000,
        100,
      );
    }, 180_000);
  },
);
