import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addressListProblem, type TrustProxy } from './http/client-address.js';

/** Every setting of docs/operations.md, read and validated once at start. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** true when DATABASE_URL is `memory://`: embedded, gone at exit. */
  inMemory: boolean;
  dataDir: string;
  /**
   * ERASURE_JOURNAL: where `users erase` records erasures for a restore to apply again
   * (default DATA_DIR/erasures.jsonl; none with memory://).
   */
  erasureJournal: string | undefined;
  redisUrl: string | undefined;
  upstreamUrl: string | undefined;
  upstreamAdminUsername: string | undefined;
  upstreamAdminPassword: string | undefined;
  upstreamTimeoutMs: number;
  jwtSecret: string;
  jwtTtlSeconds: number;
  jwtRefreshWindowSeconds: number;
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  restoreCodeTtlSeconds: number;
  /** RESTORE_CODES_PER_DAY: codes (or links) issued per account and variant in 24 hours. */
  restoreCodesPerDay: number;
  /** RESTORE_ATTEMPTS_PER_DAY: attempts at an account's codes (either variant) in 24 hours. */
  restoreAttemptsPerDay: number;
  wsCodeTtlSeconds: number;
  /** WS_MAX_PER_USER: a user's notification sockets on one instance; the oldest is closed past it. */
  wsMaxPerUser: number;
  /** WS_MAX_CONNECTIONS: notification sockets on one instance; a new one is refused past it. */
  wsMaxConnections: number;
  /** WS_HEARTBEAT_SECONDS: sockets are pinged, and their sessions checked, this often. */
  wsHeartbeatSeconds: number;
  /** WS_ALLOWED_ORIGINS: browser origins besides the service's own that may open the socket. */
  wsAllowedOrigins: string[];
  /** CORS_ORIGINS: browser origins whose pages may call the API (src/http/cors.ts); none by default. */
  corsOrigins: string[];
  authRateLimitPerMinute: number;
  /** AUTH_FAILURES_PER_DAY: wrong passwords per account and client address (/64) in 24 hours. */
  authFailuresPerDay: number;
  /** AUTH_ACCOUNT_FAILURES_PER_DAY: wrong passwords per account from all addresses in 24 hours. */
  authAccountFailuresPerDay: number;
  /** TRUST_PROXY: which hops' X-Forwarded-For to believe (src/http/client-address.ts). */
  trustProxy: TrustProxy | undefined;
  logLevel: string;
  /** LOG_FORMAT: forced JSON lines or pretty lines; unset: pretty only at a terminal, outside production. */
  logFormat: 'json' | 'pretty' | undefined;
  bodyLimit: number;
  production: boolean;
  databasePoolSize: number;
  databasePoolTimeoutMs: number;
  databaseStatementTimeoutMs: number;
  /**
   * DATABASE_POOLER: `transaction` when DATABASE_URL is a transaction pooler (PgBouncer):
   * no startup parameters, settings per transaction, no named prepared statements.
   */
  databasePooler: 'none' | 'transaction';
  /** DATABASE_MIGRATION_URL: the connection migrations run over (default DATABASE_URL). */
  databaseMigrationUrl: string | undefined;
  /** Connections to upstream by kind of call: hung calls of one kind leave the others theirs. */
  upstreamConnections: { identity: number; catalogue: number; orders: number };
  /** REQUEST_TIMEOUT_MS: a request (headers and body) not received whole by then: 408, closed. */
  requestTimeoutMs: number;
  /** HEADERS_TIMEOUT_MS: the same for the headers alone (at most REQUEST_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: an idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** METRICS_TOKEN: `/metrics` on the service's port answers only this bearer token. */
  metricsToken: string | undefined;
  /** METRICS_PORT: `/metrics` on a listener of its own on 127.0.0.1 (0: any free port, logged). */
  metricsPort: number | undefined;
  /** DEMO_CARTS: with the bundled simulator, seed 90 days of demo carts into a database without carts. */
  demoCarts: boolean;
  /** SHUTDOWN_DRAIN_MS: after SIGTERM, `/readyz` fails and the service keeps serving this long. */
  shutdownDrainMs: number;
  /** SHUTDOWN_TIMEOUT_MS: from SIGTERM, the process exits by then whatever is unfinished. */
  shutdownTimeoutMs: number;
  /** RETENTION_DAYS: carts created before this many whole UTC days are removed on a schedule (0: never). */
  retentionDays: number;
  /**
   * AUDIT_RETENTION_DAYS: retention (scheduled or the admin command) removes audit events
   * created before this many whole UTC days (0: never).
   */
  auditRetentionDays: number;
  /** RETENTION_INTERVAL_SECONDS: how often the scheduled retention runs. */
  retentionIntervalSeconds: number;
}

/** A bad setting: the message is one line naming the variable. */
export class ConfigError extends Error {}

/** The shortest audit period: the database's audit_events_remove_before (drizzle/0016) refuses less. */
export const AUDIT_MIN_DAYS = 30;
/** The shortest audit period in production: a year of staff actions. */
export const AUDIT_MIN_DAYS_PRODUCTION = 365;
/** The default audit period: two years, whatever the carts' (RETENTION_DAYS). */
export const AUDIT_DEFAULT_DAYS = 730;

/**
 * AUDIT_RETENTION_DAYS: 0 (kept for ever) or a period of at least AUDIT_MIN_DAYS, and in
 * production at least a year: a shorter trail no longer answers who did what last season.
 */
function auditRetentionDays(env: Env, production: boolean): number {
  const name = 'AUDIT_RETENTION_DAYS';
  const days = integer(env, name, AUDIT_DEFAULT_DAYS, 0, 36_500);
  const min = production ? AUDIT_MIN_DAYS_PRODUCTION : AUDIT_MIN_DAYS;
  if (days !== 0 && days < min) {
    throw new ConfigError(
      `${name} must be 0 (keep the audit trail for ever) or at least ${min}${production ? ' when NODE_ENV=production' : ''}, got ${days}`,
    );
  }
  return days;
}

type Env = Record<string, string | undefined>;

/** A bad value as shown in a message: quoted, escaped (one line whatever it holds), short. */
function shown(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(`${name} must be an integer, got ${shown(raw)}`);
  }
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

/**
 * A comma-separated list of web origins (`https://shop.example`, `http://localhost:5173`):
 * scheme, host and port only, as browsers send them in `Origin`.
 */
function origins(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const value = item.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(value);
    } catch {}
    if (
      !parsed ||
      (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
      value.replace(/\/$/, '') !== parsed.origin
    ) {
      throw new ConfigError(
        `${name} must be comma-separated origins such as https://shop.example (scheme, host, port; no path), got ${shown(value)}`,
      );
    }
    return parsed.origin;
  });
}

/**
 * CORS_ORIGINS: exact origins, comma-separated. Besides http(s), the schemes of app
 * webviews (`capacitor://localhost`, `ionic://localhost`). Never `*` or `null`: the API takes
 * bearer tokens, and a wildcard would let every site's page use a token it got hold of;
 * `null` is the origin of sandboxed frames and local files, which any page can produce. In
 * production a plain `http://` origin is refused unless it is loopback (an app's webview):
 * a page served over plain HTTP can be rewritten on the way and then holds the user's token.
 */
function corsOrigins(env: Env, production: boolean): string[] {
  const name = 'CORS_ORIGINS';
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const value = item.trim().replace(/\/$/, '');
    if (value === '*' || value.toLowerCase() === 'null') {
      throw new ConfigError(
        `${name} must list exact origins; ${shown(value)} would let any page call the API with a user's token`,
      );
    }
    const match = /^([a-z][a-z0-9+.-]*):\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.exec(value);
    if (!match) {
      throw new ConfigError(
        `${name} must be comma-separated origins such as https://app.example or capacitor://localhost (scheme, host, port; no path), got ${shown(value)}`,
      );
    }
    const scheme = match[1]!.toLowerCase();
    const host = match[2]!.toLowerCase();
    if (scheme === 'http' || scheme === 'https') {
      const origin = new URL(value).origin;
      const loopback = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
      if (production && scheme === 'http' && !loopback) {
        throw new ConfigError(
          `${name} must use https origins when NODE_ENV=production (http only for localhost), got ${shown(value)}`,
        );
      }
      return origin;
    }
    return `${scheme}://${host}${match[3] ?? ''}`;
  });
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1)$/i.test(raw.trim())) return true;
  if (/^(false|0)$/i.test(raw.trim())) return false;
  throw new ConfigError(`${name} must be true or false, got ${shown(raw)}`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value is not repeated: a URL may carry credentials.
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')})`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(
      `${name} must use ${protocols.join(' or ')}, got ${shown(parsed.protocol)}`,
    );
  }
  return raw.replace(/\/+$/, '');
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * TRUST_PROXY: unset, empty, `false` or `0` is no proxy; a hop count; or a comma-separated
 * list of the proxies' addresses or CIDR ranges. `true` believes every X-Forwarded-For entry
 * (any client picks its own address): refused in production.
 */
function trustProxy(raw: string | undefined, production: boolean): TrustProxy | undefined {
  const value = raw?.trim();
  if (value === undefined || value === '' || value === 'false' || value === '0') return undefined;
  if (value === 'true') {
    if (production) {
      throw new ConfigError(
        'TRUST_PROXY=true believes every X-Forwarded-For entry, so any client picks its own address; ' +
          "in production set the number of proxy hops or the proxies' addresses",
      );
    }
    return { kind: 'all' };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 16) throw new ConfigError(`TRUST_PROXY must be at most 16 hops, got ${hops}`);
    return { kind: 'hops', hops };
  }
  const addresses = value.split(',').map((part) => part.trim());
  const problem = addresses.includes('') ? 'an empty entry' : addressListProblem(addresses);
  if (problem !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, a hop count or a list of addresses/CIDR ranges, got ${shown(raw ?? '')} (${problem})`,
    );
  }
  return { kind: 'addresses', addresses };
}

/** The dev secret lives in DATA_DIR so tokens survive restarts without configuration. */
function devSecret(dataDir: string, inMemory: boolean): string {
  if (inMemory) return randomBytes(32).toString('hex');
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The bounds on slow clients; the headers' bound defaults to 10 s and never exceeds the request's. */
function clientTimeouts(
  env: Env,
): Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'> {
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1, 3_600_000);
  const fallback = Math.min(10_000, requestTimeoutMs);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', fallback, 1, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs}), got ${headersTimeoutMs}`,
    );
  }
  const keepAliveTimeoutMs = integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1, 3_600_000);
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}

/**
 * Shutdown: the drain's default (5 s in production, none in development) is the shipped
 * deploy/haproxy/haproxy.cfg's checks, `inter 2s` × `fall 2`, plus a second: by then a
 * balancer has stopped sending new work whether it reads the 404 (`disable-on-404`, one
 * check) or counts failed checks. The
 * deadline (25 s) leaves the drain, an upstream call (10 s) and closing, and stays under a
 * 30 s kill timeout (Kubernetes' default grace period).
 */
function shutdownSettings(
  env: Env,
  production: boolean,
): Pick<Config, 'shutdownDrainMs' | 'shutdownTimeoutMs'> {
  // Development has no balancer to wait for: Ctrl-C stops at once unless a drain is set.
  const shutdownDrainMs = integer(env, 'SHUTDOWN_DRAIN_MS', production ? 5000 : 0, 0, 600_000);
  const shutdownTimeoutMs = integer(env, 'SHUTDOWN_TIMEOUT_MS', 25_000, 1, 3_600_000);
  if (shutdownTimeoutMs <= shutdownDrainMs) {
    throw new ConfigError(
      `SHUTDOWN_TIMEOUT_MS must exceed SHUTDOWN_DRAIN_MS (${shutdownDrainMs}), got ${shutdownTimeoutMs}`,
    );
  }
  return { shutdownDrainMs, shutdownTimeoutMs };
}

/** Where metrics are served: neither set, nowhere. */
function metricsSettings(env: Env, port: number): Pick<Config, 'metricsToken' | 'metricsPort'> {
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 visible ASCII characters (no blanks)');
  }
  const raw = env.METRICS_PORT;
  const metricsPort =
    raw === undefined || raw === '' ? undefined : integer(env, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${port})`);
  }
  return { metricsToken, metricsPort };
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = integer(env, 'PORT', 8000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const rawDb = env.DATABASE_URL || undefined;
  const inMemory = rawDb === 'memory://';
  const databaseUrl = inMemory ? undefined : url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const databasePooler = env.DATABASE_POOLER || 'none';
  if (databasePooler !== 'none' && databasePooler !== 'transaction') {
    throw new ConfigError(
      `DATABASE_POOLER must be none or transaction, got ${shown(databasePooler)}`,
    );
  }
  const databaseMigrationUrl = url(env, 'DATABASE_MIGRATION_URL', ['postgres:', 'postgresql:']);
  if (databaseMigrationUrl && !databaseUrl) {
    throw new ConfigError('DATABASE_MIGRATION_URL needs DATABASE_URL (a PostgreSQL server)');
  }
  const dataDir = resolve(env.DATA_DIR || './data');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${shown(logLevel)}`,
    );
  }
  const logFormat = env.LOG_FORMAT || undefined;
  if (logFormat !== undefined && logFormat !== 'json' && logFormat !== 'pretty') {
    throw new ConfigError(`LOG_FORMAT must be json or pretty, got ${shown(logFormat)}`);
  }
  let jwtSecret = env.JWT_SECRET || '';
  if (!jwtSecret) {
    if (production) throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
    jwtSecret = devSecret(dataDir, inMemory || databaseUrl !== undefined);
  } else if (jwtSecret.length < 16) {
    throw new ConfigError('JWT_SECRET must be at least 16 characters');
  }
  const mailFrom = env.MAIL_FROM || 'no-reply@localhost';
  if (!/^[^\s@]+@[^\s@]+$/.test(mailFrom) && !/<[^\s@]+@[^\s@]+>$/.test(mailFrom)) {
    throw new ConfigError(`MAIL_FROM must be an e-mail address, got ${shown(mailFrom)}`);
  }
  const upstreamUrl = url(env, 'UPSTREAM_URL', ['http:', 'https:']);
  // Without it the bundled ERP simulator runs, with demo accounts anyone can log in with
  // (an administrator among them): a development choice only.
  if (production && !upstreamUrl) {
    throw new ConfigError(
      'UPSTREAM_URL is required when NODE_ENV=production (the bundled ERP simulator with its demo accounts runs only outside production)',
    );
  }
  const upstreamAdminUsername = env.UPSTREAM_ADMIN_USERNAME || undefined;
  const upstreamAdminPassword = env.UPSTREAM_ADMIN_PASSWORD || undefined;
  if (upstreamUrl && (!upstreamAdminUsername || !upstreamAdminPassword)) {
    throw new ConfigError(
      'UPSTREAM_ADMIN_USERNAME and UPSTREAM_ADMIN_PASSWORD are required when UPSTREAM_URL is set',
    );
  }
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']);
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  // Restore is on in production only with a mailer; its links then need a base no request sets.
  if (production && smtpUrl && !publicUrl) {
    throw new ConfigError(
      'PUBLIC_URL is required when NODE_ENV=production and SMTP_URL is set (the base of the links in password-restore e-mails)',
    );
  }
  return {
    port,
    host,
    databaseUrl,
    inMemory,
    dataDir,
    erasureJournal: env.ERASURE_JOURNAL
      ? resolve(env.ERASURE_JOURNAL)
      : inMemory
        ? undefined
        : join(dataDir, 'erasures.jsonl'),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    upstreamUrl,
    upstreamAdminUsername,
    upstreamAdminPassword,
    upstreamTimeoutMs: integer(env, 'UPSTREAM_TIMEOUT_MS', 10_000, 1, 600_000),
    jwtSecret,
    jwtTtlSeconds: integer(env, 'JWT_TTL_SECONDS', 3600, 1, 31_536_000),
    jwtRefreshWindowSeconds: integer(env, 'JWT_REFRESH_WINDOW_SECONDS', 604_800, 0, 315_360_000),
    publicUrl,
    smtpUrl,
    mailFrom,
    restoreCodeTtlSeconds: integer(env, 'RESTORE_CODE_TTL_SECONDS', 3600, 1, 31_536_000),
    restoreCodesPerDay: integer(env, 'RESTORE_CODES_PER_DAY', 5, 1, 1000),
    restoreAttemptsPerDay: integer(env, 'RESTORE_ATTEMPTS_PER_DAY', 10, 1, 1000),
    wsCodeTtlSeconds: integer(env, 'WS_CODE_TTL_SECONDS', 300, 1, 86_400),
    wsMaxPerUser: integer(env, 'WS_MAX_PER_USER', 10, 1, 1000),
    wsMaxConnections: integer(env, 'WS_MAX_CONNECTIONS', 2000, 1, 1_000_000),
    wsAllowedOrigins: origins(env, 'WS_ALLOWED_ORIGINS'),
    corsOrigins: corsOrigins(env, production),
    wsHeartbeatSeconds: integer(env, 'WS_HEARTBEAT_SECONDS', 30, 1, 3600),
    authRateLimitPerMinute: integer(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 10, 0, 1_000_000),
    authFailuresPerDay: integer(env, 'AUTH_FAILURES_PER_DAY', 100, 1, 1_000_000),
    authAccountFailuresPerDay: integer(env, 'AUTH_ACCOUNT_FAILURES_PER_DAY', 1000, 1, 1_000_000),
    retentionDays: integer(env, 'RETENTION_DAYS', 0, 0, 36_500),
    auditRetentionDays: auditRetentionDays(env, production),
    retentionIntervalSeconds: integer(env, 'RETENTION_INTERVAL_SECONDS', 3600, 1, 604_800),
    trustProxy: trustProxy(env.TRUST_PROXY, production),
    logLevel,
    logFormat,
    bodyLimit: 1024 * 1024,
    production,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databasePoolTimeoutMs: integer(env, 'DATABASE_POOL_TIMEOUT_MS', 3000, 1, 600_000),
    databaseStatementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5000, 1, 3_600_000),
    databasePooler,
    databaseMigrationUrl,
    upstreamConnections: {
      identity: integer(env, 'UPSTREAM_CONNECTIONS_IDENTITY', 8, 1, 1024),
      catalogue: integer(env, 'UPSTREAM_CONNECTIONS_CATALOGUE', 16, 1, 1024),
      orders: integer(env, 'UPSTREAM_CONNECTIONS_ORDERS', 8, 1, 1024),
    },
    demoCarts: flag(env, 'DEMO_CARTS', true),
    ...clientTimeouts(env),
    ...metricsSettings(env, port),
    ...shutdownSettings(env, production),
  };
}
