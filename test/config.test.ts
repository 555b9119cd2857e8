import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { DEFAULT_CONNECTIONS } from '../src/upstream/client.js';
import { runProcess } from './helpers/process.js';

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ordering-config-'));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** Everything valid but the variables under test; DATA_DIR keeps the dev secret out of ./data. */
const env = (vars: Record<string, string>) => ({ DATA_DIR: dataDir, ...vars });

function configError(vars: Record<string, string>): ConfigError {
  try {
    loadConfig(env(vars));
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(vars)}`);
}

describe('loadConfig', () => {
  it('has the defaults of docs/operations.md', () => {
    const config = loadConfig(env({}));
    expect(config).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      inMemory: false,
      dataDir,
      redisUrl: undefined,
      upstreamUrl: undefined,
      upstreamAdminUsername: undefined,
      upstreamAdminPassword: undefined,
      upstreamTimeoutMs: 10_000,
      jwtTtlSeconds: 3600,
      jwtRefreshWindowSeconds: 604_800,
      publicUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'no-reply@localhost',
      restoreCodeTtlSeconds: 3600,
      wsCodeTtlSeconds: 300,
      wsMaxPerUser: 10,
      wsMaxConnections: 2000,
      wsAllowedOrigins: [],
      wsHeartbeatSeconds: 30,
      authRateLimitPerMinute: 10,
      authFailuresPerDay: 100,
      authAccountFailuresPerDay: 1000,
      trustProxy: undefined,
      logLevel: 'info',
      bodyLimit: 1024 * 1024,
      production: false,
      databasePoolSize: 10,
      databasePoolTimeoutMs: 3000,
      databaseStatementTimeoutMs: 5000,
      upstreamConnections: { identity: 8, catalogue: 16, orders: 8 },
    });
    // The client's own defaults are the same.
    expect(config.upstreamConnections).toEqual(DEFAULT_CONNECTIONS);
  });

  it('generates a dev secret once and keeps it in DATA_DIR', () => {
    const first = loadConfig(env({})).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o077).toBe(0);
    expect(loadConfig(env({})).jwtSecret).toBe(first);
    // memory:// keeps nothing on disk.
    const memory = loadConfig(env({ DATABASE_URL: 'memory://' }));
    expect(memory.inMemory).toBe(true);
    expect(memory.databaseUrl).toBeUndefined();
    expect(memory.jwtSecret).not.toBe(first);
  });

  it('reads the settings', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/orders',
      DATA_DIR: dataDir,
      REDIS_URL: 'redis://cache:6379',
      UPSTREAM_URL: 'https://erp.example.com/api/',
      UPSTREAM_ADMIN_USERNAME: 'svc',
      UPSTREAM_ADMIN_PASSWORD: 'pw',
      UPSTREAM_TIMEOUT_MS: '2500',
      JWT_SECRET: 'a-secret-of-enough-length',
      JWT_TTL_SECONDS: '60',
      JWT_REFRESH_WINDOW_SECONDS: '0',
      PUBLIC_URL: 'https://shop.example.com',
      SMTP_URL: 'smtp://u:p@mail:25',
      MAIL_FROM: 'Shop <shop@example.com>',
      RESTORE_CODE_TTL_SECONDS: '600',
      WS_CODE_TTL_SECONDS: '30',
      WS_MAX_PER_USER: '3',
      WS_MAX_CONNECTIONS: '500',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      TRUST_PROXY: '2',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      UPSTREAM_CONNECTIONS_IDENTITY: '4',
      UPSTREAM_CONNECTIONS_CATALOGUE: '64',
      UPSTREAM_CONNECTIONS_ORDERS: '2',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db:5432/orders',
      inMemory: false,
      redisUrl: 'redis://cache:6379',
      upstreamUrl: 'https://erp.example.com/api',
      upstreamAdminUsername: 'svc',
      upstreamAdminPassword: 'pw',
      upstreamTimeoutMs: 2500,
      jwtSecret: 'a-secret-of-enough-length',
      jwtTtlSeconds: 60,
      jwtRefreshWindowSeconds: 0,
      publicUrl: 'https://shop.example.com',
      smtpUrl: 'smtp://u:p@mail:25',
      mailFrom: 'Shop <shop@example.com>',
      restoreCodeTtlSeconds: 600,
      wsCodeTtlSeconds: 30,
      wsMaxPerUser: 3,
      wsMaxConnections: 500,
      authRateLimitPerMinute: 0,
      trustProxy: { kind: 'hops', hops: 2 },
      logLevel: 'warn',
      production: true,
      upstreamConnections: { identity: 4, catalogue: 64, orders: 2 },
    });
    expect(loadConfig(env({ TRUST_PROXY: 'true' })).trustProxy).toEqual({ kind: 'all' });
    expect(loadConfig(env({ TRUST_PROXY: 'false' })).trustProxy).toBeUndefined();
    expect(loadConfig(env({ TRUST_PROXY: '0' })).trustProxy).toBeUndefined();
    expect(loadConfig(env({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1' })).trustProxy).toEqual({
      kind: 'addresses',
      addresses: ['10.0.0.0/8', '192.168.1.7', '::1'],
    });
    expect(loadConfig(env({ TRUST_PROXY: 'loopback' })).trustProxy).toEqual({
      kind: 'addresses',
      addresses: ['loopback'],
    });
    expect(loadConfig(env({ DATABASE_URL: 'postgresql://db/x' })).databaseUrl).toBe(
      'postgresql://db/x',
    );
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig(env({ PORT: '', LOG_LEVEL: '', UPSTREAM_URL: '', DATABASE_URL: '' }));
    expect(config.port).toBe(8000);
    expect(config.logLevel).toBe('info');
    expect(config.upstreamUrl).toBeUndefined();
  });

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '80.5' }],
    ['UPSTREAM_TIMEOUT_MS', { UPSTREAM_TIMEOUT_MS: '0' }],
    ['UPSTREAM_TIMEOUT_MS', { UPSTREAM_TIMEOUT_MS: 'ten' }],
    ['UPSTREAM_CONNECTIONS_IDENTITY', { UPSTREAM_CONNECTIONS_IDENTITY: '0' }],
    ['UPSTREAM_CONNECTIONS_CATALOGUE', { UPSTREAM_CONNECTIONS_CATALOGUE: 'many' }],
    ['UPSTREAM_CONNECTIONS_ORDERS', { UPSTREAM_CONNECTIONS_ORDERS: '5000' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['JWT_SECRET', { NODE_ENV: 'production' }],
    // Production never runs the bundled simulator and its demo accounts.
    ['UPSTREAM_URL', { NODE_ENV: 'production', JWT_SECRET: 'production-secret-1234' }],
    ['WS_MAX_PER_USER', { WS_MAX_PER_USER: '0' }],
    ['WS_MAX_CONNECTIONS', { WS_MAX_CONNECTIONS: 'lots' }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['UPSTREAM_ADMIN_USERNAME', { UPSTREAM_URL: 'http://erp:9000' }],
    [
      'UPSTREAM_ADMIN_PASSWORD',
      { UPSTREAM_URL: 'http://erp:9000', UPSTREAM_ADMIN_USERNAME: 'svc' },
    ],
    ['UPSTREAM_URL', { UPSTREAM_URL: 'ftp://erp' }],
    ['AUTH_RATE_LIMIT_PER_MINUTE', { AUTH_RATE_LIMIT_PER_MINUTE: '-1' }],
    ['JWT_TTL_SECONDS', { JWT_TTL_SECONDS: '0' }],
    ['REDIS_URL', { REDIS_URL: 'http://cache' }],
    ['SMTP_URL', { SMTP_URL: 'mail.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'shop.example.com' }],
    ['MAIL_FROM', { MAIL_FROM: 'nobody' }],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '0' }],
    ['DATABASE_POOL_TIMEOUT_MS', { DATABASE_POOL_TIMEOUT_MS: 'soon' }],
    ['DATABASE_STATEMENT_TIMEOUT_MS', { DATABASE_STATEMENT_TIMEOUT_MS: '0' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'short' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'a token with blanks in it' }],
    ['METRICS_PORT', { METRICS_PORT: 'nine' }],
    ['METRICS_PORT', { METRICS_PORT: '70000' }],
    ['METRICS_PORT', { PORT: '9100', METRICS_PORT: '9100' }],
    ['DEMO_CARTS', { DEMO_CARTS: 'sometimes' }],
    ['RESTORE_CODES_PER_DAY', { RESTORE_CODES_PER_DAY: '0' }],
    ['RESTORE_ATTEMPTS_PER_DAY', { RESTORE_ATTEMPTS_PER_DAY: 'many' }],
    [
      'PUBLIC_URL',
      {
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(32),
        UPSTREAM_URL: 'http://erp:9000',
        UPSTREAM_ADMIN_USERNAME: 'svc',
        UPSTREAM_ADMIN_PASSWORD: 'svc-password',
        SMTP_URL: 'smtp://mail:25',
      },
    ],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1,' }],
    ['TRUST_PROXY', { TRUST_PROXY: '17' }],
  ];
  it.each(bad)('refuses a bad %s with a one-line ConfigError naming it (%j)', (name, vars) => {
    const error = configError(vars);
    expect(error.message).toContain(name);
    expect(error.message).not.toMatch(/[\r\n]/);
    expect(error.message.length).toBeLessThan(200);
  });

  it('restore budgets: 5 codes and 10 attempts per account in 24 hours unless set', () => {
    expect(loadConfig(env({}))).toMatchObject({ restoreCodesPerDay: 5, restoreAttemptsPerDay: 10 });
    expect(
      loadConfig(env({ RESTORE_CODES_PER_DAY: '3', RESTORE_ATTEMPTS_PER_DAY: '20' })),
    ).toMatchObject({ restoreCodesPerDay: 3, restoreAttemptsPerDay: 20 });
  });

  it('keeps the audit trail two years unless AUDIT_RETENTION_DAYS says otherwise; never under 30 days, in production a year', () => {
    expect(loadConfig(env({}))).toMatchObject({ retentionDays: 0, auditRetentionDays: 730 });
    expect(loadConfig(env({ AUDIT_RETENTION_DAYS: '0' })).auditRetentionDays).toBe(0);
    expect(loadConfig(env({ AUDIT_RETENTION_DAYS: '30' })).auditRetentionDays).toBe(30);
    expect(configError({ AUDIT_RETENTION_DAYS: '29' }).message).toBe(
      'AUDIT_RETENTION_DAYS must be 0 (keep the audit trail for ever) or at least 30, got 29',
    );
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-secret-of-enough-length',
      UPSTREAM_URL: 'https://erp.example.com',
      UPSTREAM_ADMIN_USERNAME: 'svc',
      UPSTREAM_ADMIN_PASSWORD: 'pw',
    };
    expect(configError({ ...production, AUDIT_RETENTION_DAYS: '364' }).message).toBe(
      'AUDIT_RETENTION_DAYS must be 0 (keep the audit trail for ever) or at least 365 when NODE_ENV=production, got 364',
    );
    expect(loadConfig(env({ ...production, AUDIT_RETENTION_DAYS: '365' })).auditRetentionDays).toBe(
      365,
    );
    expect(loadConfig(env(production)).auditRetentionDays).toBe(730);
  });

  it('refuses TRUST_PROXY=true in production: it lets any client pick its address', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-secret-of-enough-length',
      UPSTREAM_URL: 'https://erp.example.com',
      UPSTREAM_ADMIN_USERNAME: 'svc',
      UPSTREAM_ADMIN_PASSWORD: 'pw',
      PUBLIC_URL: 'https://shop.example.com',
      SMTP_URL: 'smtp://mail:25',
    };
    const error = configError({ ...production, TRUST_PROXY: 'true' });
    expect(error.message).toMatch(/^TRUST_PROXY=true .*hops.*addresses/);
    expect(error.message).not.toMatch(/[\r\n]/);
    expect(loadConfig(env({ ...production, TRUST_PROXY: '1' })).trustProxy).toEqual({
      kind: 'hops',
      hops: 1,
    });
  });

  it('serves metrics nowhere unless METRICS_TOKEN or METRICS_PORT is set', () => {
    expect(loadConfig(env({}))).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
    expect(
      loadConfig(env({ METRICS_TOKEN: 'a-long-enough-token', METRICS_PORT: '9100' })),
    ).toMatchObject({ metricsToken: 'a-long-enough-token', metricsPort: 9100 });
    expect(loadConfig(env({ METRICS_PORT: '0' })).metricsPort).toBe(0);
  });

  it('bounds slow clients: request 30 s, headers 10 s (never above the request), keep-alive 72 s', () => {
    expect(loadConfig(env({}))).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
    });
    expect(
      loadConfig(
        env({
          REQUEST_TIMEOUT_MS: '60000',
          HEADERS_TIMEOUT_MS: '20000',
          KEEP_ALIVE_TIMEOUT_MS: '5000',
        }),
      ),
    ).toMatchObject({
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 20_000,
      keepAliveTimeoutMs: 5000,
    });
    // A shorter request bound takes the headers' default down with it.
    expect(loadConfig(env({ REQUEST_TIMEOUT_MS: '4000' })).headersTimeoutMs).toBe(4000);
    for (const [name, vars] of [
      ['REQUEST_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '0' }],
      ['REQUEST_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '30s' }],
      ['HEADERS_TIMEOUT_MS', { HEADERS_TIMEOUT_MS: '0' }],
      ['HEADERS_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }],
      ['KEEP_ALIVE_TIMEOUT_MS', { KEEP_ALIVE_TIMEOUT_MS: '0' }],
      ['KEEP_ALIVE_TIMEOUT_MS', { KEEP_ALIVE_TIMEOUT_MS: '-5' }],
    ] as const) {
      const error = configError(vars);
      expect(error.message, JSON.stringify(vars)).toContain(name);
      expect(error.message).not.toMatch(/[\r\n]/);
    }
  });

  it('drains 5 s on shutdown in production (the shipped haproxy.cfg: inter 2s x fall 2, + 1 s) within a 25 s deadline', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'production-secret-1234',
      UPSTREAM_URL: 'https://erp.example',
      UPSTREAM_ADMIN_USERNAME: 'svc',
      UPSTREAM_ADMIN_PASSWORD: 'svc-password',
    };
    expect(loadConfig(env(production))).toMatchObject({
      shutdownDrainMs: 5000,
      shutdownTimeoutMs: 25_000,
    });
    // Development has no balancer to wait for: no drain unless one is set.
    expect(loadConfig(env({}))).toMatchObject({ shutdownDrainMs: 0, shutdownTimeoutMs: 25_000 });
    expect(loadConfig(env({ SHUTDOWN_DRAIN_MS: '2000' })).shutdownDrainMs).toBe(2000);
    expect(loadConfig(env({ SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_TIMEOUT_MS: '1000' }))).toMatchObject({
      shutdownDrainMs: 0,
      shutdownTimeoutMs: 1000,
    });
    for (const [name, vars] of [
      ['SHUTDOWN_DRAIN_MS', { SHUTDOWN_DRAIN_MS: '5s' }],
      ['SHUTDOWN_TIMEOUT_MS', { SHUTDOWN_TIMEOUT_MS: '0' }],
      ['SHUTDOWN_TIMEOUT_MS', { SHUTDOWN_DRAIN_MS: '30000' }],
      ['SHUTDOWN_TIMEOUT_MS', { SHUTDOWN_DRAIN_MS: '2000', SHUTDOWN_TIMEOUT_MS: '2000' }],
    ] as const) {
      const error = configError(vars);
      expect(error.message, JSON.stringify(vars)).toContain(name);
    }
  });

  it('keeps the message on one line whatever the bad value holds', () => {
    for (const [name, value] of [
      ['PORT', '80\n81'],
      ['LOG_LEVEL', 'info\nERROR: injected'],
      ['DATABASE_URL', 'mysql://x\r\ny'],
      ['MAIL_FROM', 'a\nb'],
      ['UPSTREAM_URL', 'ftp://x/\ny'],
    ]) {
      const error = configError({ [name]: value });
      expect(error.message, name).toContain(name);
      expect(error.message, name).not.toMatch(/[\r\n]/);
    }
  });

  it('does not repeat a secret it refuses', () => {
    const error = configError({ JWT_SECRET: 'tooshort' });
    expect(error.message).not.toContain('tooshort');
    const url = configError({ DATABASE_URL: 'postgres://admin:hunter2@db:port/x' });
    expect(url.message).toContain('DATABASE_URL');
    expect(url.message).not.toContain('hunter2');
  });
});

describe('WS_ALLOWED_ORIGINS', () => {
  it('reads comma-separated origins, a trailing slash dropped', () => {
    const config = loadConfig(
      env({ WS_ALLOWED_ORIGINS: 'https://shop.example/, http://localhost:5173' }),
    );
    expect(config.wsAllowedOrigins).toEqual(['https://shop.example', 'http://localhost:5173']);
  });

  it('refuses what is not an origin, naming the setting', () => {
    for (const value of ['shop.example', 'https://shop.example/app', 'ftp://x.example', '*']) {
      expect(configError({ WS_ALLOWED_ORIGINS: value }).message).toContain('WS_ALLOWED_ORIGINS');
    }
  });
});

describe('npm start with a bad setting', () => {
  it('exits 1 with one line on stderr naming the variable', async () => {
    // The compiled service (global-setup built it: prestart has nothing to do).
    const { code, stdout, stderr } = await runProcess('npm', ['start', '--silent'], {
      cwd: process.cwd(),
      env: { ...process.env, PORT: 'abc', DATA_DIR: dataDir },
    });
    expect(code, stderr).toBe(1);
    // npm's own warnings about the machine's npmrc are not the service's output.
    const lines = stderr
      .split('\n')
      .filter((line) => line !== '' && !/^npm (warn|notice)/i.test(line));
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0], stderr).toContain('PORT');
    expect(lines[0]).not.toMatch(/\bat .+:\d+/);
    expect(stdout).toBe('');
  });
});
