import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { HAPROXY_CFG, haproxyInstalled, INSTANCE_ENV, readEnvFile } from '../fleet/cluster.js';

/**
 * The deploy/ files agree with the service (the fleet test, `npm run test:fleet`, runs them;
 * these checks are quick and run with `npm test`).
 */
const cfg = readFileSync(HAPROXY_CFG, 'utf8');

/** A duration of haproxy.cfg (`2s`, `500ms`, `1h`, bare milliseconds) in milliseconds. */
function ms(value: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value);
  if (!match) throw new Error(`not a duration: ${value}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 'ms']!;
  return Number(match[1]) * unit;
}

const defaultServer = /^\s*default-server (.*)$/m.exec(cfg)?.[1] ?? '';
const option = (name: string) => new RegExp(`\\b${name} (\\S+)`).exec(defaultServer)?.[1];

describe('deploy/haproxy/haproxy.cfg', () => {
  it.skipIf(!haproxyInstalled)('is valid for HAProxy (haproxy -c)', () => {
    const check = spawnSync('haproxy', ['-c', '-f', HAPROXY_CFG], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });

  it("checks /readyz, drains on its 404, and the service's default drain outlasts inter x fall", () => {
    expect(cfg).toMatch(/^\s*option httpchk GET \/readyz$/m);
    expect(cfg).toMatch(/^\s*http-check disable-on-404$/m);
    const inter = ms(option('inter')!);
    const fall = Number(option('fall'));
    const drain = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      DATABASE_URL: 'memory://',
      UPSTREAM_URL: 'https://erp.example',
      UPSTREAM_ADMIN_USERNAME: 'svc',
      UPSTREAM_ADMIN_PASSWORD: 'svc-password',
    }).shutdownDrainMs;
    expect(inter * fall).toBeLessThan(drain);
    expect(Number(readEnvFile().SHUTDOWN_DRAIN_MS)).toBeGreaterThan(inter * fall);
  });

  it('waits on an answer longer than the service may take, and keeps WebSockets open', () => {
    const timeout = (name: string) => ms(new RegExp(`timeout ${name} (\\S+)`).exec(cfg)![1]);
    const config = loadConfig({ DATABASE_URL: 'memory://' });
    // A checkout makes up to a few ERP calls (UPSTREAM_TIMEOUT_MS each).
    expect(timeout('server')).toBeGreaterThanOrEqual(4 * config.upstreamTimeoutMs);
    // The service pings WebSockets every 30 s: an idle tunnel lives longer.
    expect(timeout('tunnel')).toBeGreaterThan(30_000);
    // Only requests that were never sent are retried.
    expect(cfg).toMatch(/^\s*retry-on conn-failure$/m);
  });
});

describe('deploy/fleet/instance.env.example', () => {
  const vars = readEnvFile();

  it('is a production configuration the service accepts', () => {
    const config = loadConfig(vars);
    expect(config.production).toBe(true);
    expect(config.trustProxy).toEqual({ kind: 'hops', hops: 1 });
    expect(config.databasePooler).toBe('transaction');
    expect(config.redisUrl).toBeDefined();
    expect(config.publicUrl).toBeDefined();
    expect(config.metricsToken).toBeDefined();
  });

  it('names only settings docs/operations.md documents', () => {
    const docs = readFileSync('docs/operations.md', 'utf8');
    for (const name of Object.keys(vars)) {
      if (name === 'NODE_ENV') continue;
      expect(docs, `${INSTANCE_ENV}: ${name}`).toContain(`\`${name}\``);
    }
  });
});
