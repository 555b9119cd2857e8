import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ETCD,
  ETCD_YML,
  type Etcd,
  HAPROXY,
  PATRONI,
  PG_HAPROXY_CFG,
  patroniYml,
  startEtcd,
} from '../fleet/patroni.js';

/**
 * deploy/patroni/ loaded as shipped by the programs that run it: etcd (it starts from
 * etcd.yml, and every key is one of its flags), Patroni (`--validate-config`, against that
 * etcd) and HAProxy (`haproxy -c`, with the variables the file names). And the settings the
 * failover test's targets rest on (docs/operations.md, "The database fails over").
 * The failover itself: test/failover/ (`npm run test:failover`).
 */

// biome-ignore lint/suspicious/noExplicitAny: YAML read field by field
const yml = (file: string): any => parse(readFileSync(file, 'utf8'));
const missing = [ETCD ? '' : 'etcd-server', PATRONI ? '' : 'patroni', HAPROXY ? '' : 'haproxy'];
for (const name of missing.filter(Boolean)) {
  console.log(`deploy/patroni checks with ${name} skipped: apt-get install -y ${name}`);
}

describe('deploy/patroni/', () => {
  let etcd: Etcd | undefined;

  beforeAll(async () => {
    if (ETCD) etcd = await startEtcd();
  });
  afterAll(async () => {
    await etcd?.stop();
  });

  it.skipIf(!ETCD)('etcd.yml: every key is an etcd flag, and etcd runs from it', () => {
    const help = spawnSync(ETCD!, ['--help'], { encoding: 'utf8' });
    const flags = new Set(
      [...`${help.stdout}${help.stderr}`.matchAll(/--([a-z0-9-]+)/g)].map((m) => m[1]),
    );
    // enable-grpc-gateway is a key of the file only (not in --help); startEtcd shows it works:
    // it waits for the gateway's answer.
    const keys = Object.keys(yml(ETCD_YML)).filter((key) => key !== 'enable-grpc-gateway');
    expect(keys.filter((key) => !flags.has(key))).toEqual([]);
    // Started by beforeAll from the file (ports and data dir replaced), answering on the v3
    // JSON gateway Patroni uses.
    expect(etcd?.proc.child.exitCode).toBeNull();
  });

  for (const n of [1, 2] as const) {
    it.skipIf(!ETCD || !PATRONI)(`patroni-pg${n}.yml passes patroni --validate-config`, () => {
      const check = spawnSync(PATRONI!, ['--validate-config', patroniYml(n)], {
        // The file's etcd address is 127.0.0.1:2379: the test's etcd listens elsewhere.
        env: { PATH: process.env.PATH, PATRONI_ETCD3_HOSTS: etcd!.hosts },
        encoding: 'utf8',
      });
      expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
      expect(`${check.stdout}${check.stderr}`).toBe('');
    });
  }

  it('the two nodes differ only in name, addresses and data dir', () => {
    const [one, two] = [yml(patroniYml(1)), yml(patroniYml(2))];
    expect(one.name).toBe('pg1');
    expect(two.name).toBe('pg2');
    const shared = (c: typeof one) => ({
      ...c,
      name: 0,
      restapi: 0,
      postgresql: { ...c.postgresql, listen: 0, connect_address: 0, data_dir: 0, pgpass: 0 },
    });
    expect(shared(two)).toEqual(shared(one));
  });

  it('synchronous, not strict, with timings that replace a dead primary within the targets', () => {
    const dcs = yml(patroniYml(1)).bootstrap.dcs;
    expect(dcs.synchronous_mode).toBe(true);
    expect(dcs.synchronous_mode_strict).toBe(false);
    expect(dcs.postgresql.use_pg_rewind).toBe(true);
    // Patroni's own rule, and a leader key that expires well inside the 20 s target.
    expect(dcs.loop_wait + 2 * dcs.retry_timeout).toBeLessThanOrEqual(dcs.ttl);
    expect(dcs.ttl + dcs.loop_wait).toBeLessThan(20);
    // The sync standby promotes however far behind the dead primary's last WAL position it
    // is (the failover test's case b puts it tens of MB behind).
    expect(dcs.maximum_lag_on_failover).toBeGreaterThanOrEqual(2 ** 30);
  });

  it.skipIf(!HAPROXY)('haproxy.cfg passes haproxy -c, and sends only to the primary', () => {
    const env = {
      PATH: process.env.PATH,
      PG_BIND: '127.0.0.1:5000',
      PG1_ADDRESS: '127.0.0.2:5433',
      PG1_REST_PORT: '8009',
      PG2_ADDRESS: '127.0.0.3:5434',
      PG2_REST_PORT: '8010',
    };
    const check = spawnSync(HAPROXY!, ['-c', '-f', PG_HAPROXY_CFG], { env, encoding: 'utf8' });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    const cfg = readFileSync(PG_HAPROXY_CFG, 'utf8');
    expect(cfg).toMatch(/^\s*mode tcp$/m);
    expect(cfg).toMatch(/^\s*option httpchk OPTIONS \/primary$/m);
    expect(cfg).toMatch(/^\s*http-check expect status 200$/m);
    expect(cfg).toMatch(
      /^\s*default-server inter 1s fastinter 250ms downinter 250ms fall 2 rise 1 on-marked-down shutdown-sessions$/m,
    );
    for (const n of [1, 2]) {
      const rest = yml(patroniYml(n as 1 | 2)).restapi.listen.split(':')[1];
      expect(env[`PG${n}_REST_PORT` as 'PG1_REST_PORT']).toBe(rest);
      expect(cfg).toMatch(
        new RegExp(
          `server pg${n} "\\$\\{PG${n}_ADDRESS\\}" .*check port "\\$\\{PG${n}_REST_PORT\\}"`,
        ),
      );
    }
  });
});
