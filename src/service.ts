import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type Logger, pino } from 'pino';
// A type only: the simulator's code is loaded (below) only when UPSTREAM_URL is unset.
import type { Simulator } from '../erp-simulator/server.js';
import { buildApp } from './app.js';
import { auditGuardState, describeAuditGuard } from './audit/guard.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { secureRandom } from './controls/secure-random.js';
import { type Database, openDatabase } from './db/client.js';
import { configurationError, isDatabaseUnavailable } from './db/errors.js';
import type { App, Deps } from './deps.js';
import { serviceBase } from './http/links.js';
import { logStream } from './log.js';
import { scheduleRetention } from './retention/schedule.js';
import { UpstreamClient } from './upstream/client.js';

export interface Service {
  app: App;
  url: string;
  /** Where a person goes: the staff console, the API docs and the API (PUBLIC_URL's, else the listen address). */
  addresses: { console: string; docs: string; api: string };
  simulator: Simulator | undefined;
  /**
   * Stops. For `drainMs` first (a balancer's time to notice): `/readyz` answers 404 and
   * every answer closes its connection, but the instance serves as before. Then closes
   * WebSockets with 1001 and idle connections, stops accepting, finishes requests in flight,
   * and closes everything else (the database pool last).
   */
  stop(drainMs?: number): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** Runs before listening when the bundled simulator is used (demo data). */
  onSimulator?: (deps: Deps) => Promise<void>;
}

/** A start refused for a setting: the message names the cause; the process exits non-zero. */
export class DatabaseConfigurationError extends Error {}

/** The start-up line of the database stage: what is opened, and whether it is created now. */
function databaseStage(config: Config): string {
  if (config.databaseUrl) return 'start: database (PostgreSQL server of DATABASE_URL)';
  if (config.inMemory) return 'start: database (embedded PostgreSQL in memory, a few seconds)';
  return existsSync(join(config.dataDir, 'pglite'))
    ? `start: database (embedded PostgreSQL in ${config.dataDir})`
    : `start: database (creating embedded PostgreSQL in ${config.dataDir}: first start, a few seconds)`;
}

/**
 * Applies migrations and opens a pool connection, waiting for a database that is not
 * reachable yet (a deploy that starts beside a database restart); any other failure (bad
 * credentials, an unknown database, a pooler refusing the connection, a bad migration) ends
 * the start. The migrations may run over another URL (DATABASE_MIGRATION_URL): the pool's own
 * connection is tried here too, so a refusal of it is named before the service listens.
 */
async function migrateWhenReachable(database: Database, log: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await database.migrate();
      await database.ping();
      return;
    } catch (error) {
      const cause = configurationError(error);
      if (cause) {
        throw new DatabaseConfigurationError(`database refused the service: ${cause}`, {
          cause: error,
        });
      }
      if (!isDatabaseUnavailable(error)) throw error;
      const wait = Math.min(250 * 2 ** (attempt - 1), 5000);
      log.warn(
        { err: { message: (error as Error).message }, attempt, retryInMs: wait },
        'database unavailable: migrations will be retried',
      );
      await delay(wait);
    }
  }
}

/**
 * Says at start whether the audit trail holds against the role the service runs as
 * (decision 0011); in production a trail it could change is a warning. Embedded: one
 * superuser, nothing to say.
 */
async function reportAuditGuard(database: Database, config: Config, log: Logger): Promise<void> {
  try {
    const state = await auditGuardState(database.run);
    const level = state === 'held' || !config.production ? 'info' : 'warn';
    log[level]({ auditGuard: state }, describeAuditGuard(state));
  } catch (error) {
    log.warn({ err: { message: (error as Error).message } }, 'audit trail guard: not checked');
  }
}

/**
 * Behind a pooler: when the server connections already default to the session settings
 * (`npm run admin -- db settings`), single reads go without them (issue 33); else each read
 * sets them for itself, as before. Either way the start goes on; the log says which.
 */
async function reportServerDefaults(database: Database, log: Logger): Promise<void> {
  try {
    const hold = await database.adoptServerDefaults();
    log.info(
      { sessionDefaults: hold },
      hold
        ? 'database defaults hold the session settings: single reads are sent without them'
        : 'database defaults differ from the session settings: each read sets them (see `admin db settings`)',
    );
  } catch (error) {
    log.warn({ err: { message: (error as Error).message } }, 'database defaults: not checked');
  }
}

/**
 * Opens the database (migrating it), the upstream client (starting the bundled simulator
 * when UPSTREAM_URL is unset) and the app, and listens.
 */
export async function startService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  // Until the app (and its logger) exists, start-up logs through a logger of its own.
  const stream = await logStream(config);
  const log = stream ? pino({ level: config.logLevel }, stream) : pino({ level: config.logLevel });
  const started = performance.now();
  log.info(databaseStage(config));
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.inMemory ? undefined : config.dataDir,
    lockRole: 'the service',
    poolSize: config.databasePoolSize,
    poolTimeoutMs: config.databasePoolTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    pooler: config.databasePooler,
    migrationUrl: config.databaseMigrationUrl,
    log,
  });
  log.info('start: migrations');
  await migrateWhenReachable(database, log);
  if (database.kind === 'postgres') await reportAuditGuard(database, config, log);
  if (config.databasePooler === 'transaction') await reportServerDefaults(database, log);
  let simulator: Simulator | undefined;
  let upstreamUrl = config.upstreamUrl;
  let serviceAccount = {
    username: config.upstreamAdminUsername ?? '',
    password: config.upstreamAdminPassword ?? '',
  };
  if (!upstreamUrl) {
    // The simulator is no part of the service: a service with an ERP configured never loads it.
    const { DEMO_SERVICE_ACCOUNT, startSimulator } = await import('../erp-simulator/server.js');
    simulator = await startSimulator();
    upstreamUrl = simulator.url;
    serviceAccount = DEMO_SERVICE_ACCOUNT;
  }
  const upstream = new UpstreamClient({
    url: upstreamUrl,
    timeoutMs: config.upstreamTimeoutMs,
    serviceAccount,
    connections: config.upstreamConnections,
  });
  const deps: Deps = {
    config,
    database,
    upstream,
    clock: options.clock ?? systemClock,
    random: secureRandom,
  };
  if (simulator && options.onSimulator) {
    log.info(
      config.demoCarts
        ? 'start: demo data (stores, users; 90 days of carts into a database without carts: a few seconds, once)'
        : 'start: demo data (stores and users)',
    );
    await options.onSimulator(deps);
  }
  const app = await buildApp(deps, stream ? { logger: { level: config.logLevel, stream } } : {});
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  app.log.info(
    {
      url,
      database: database.kind,
      upstream: simulator ? `simulator at ${simulator.url}` : upstreamUrl,
      startMs: Math.round(performance.now() - started),
    },
    'listening',
  );
  const base = serviceBase(app);
  const addresses = {
    console: `${base}/console/`,
    docs: `${base}/api/docs/`,
    api: `${base}/api/v1/`,
  };
  const retention =
    config.retentionDays > 0
      ? scheduleRetention(database, {
          days: config.retentionDays,
          auditDays: config.auditRetentionDays,
          intervalSeconds: config.retentionIntervalSeconds,
          clock: deps.clock,
          log,
        })
      : undefined;
  let stopping: Promise<void> | undefined;
  return {
    app,
    url,
    addresses,
    simulator,
    stop(drainMs = 0) {
      stopping ??= (async () => {
        if (drainMs > 0) {
          app.lifecycle.draining = true;
          app.log.info({ drainMs }, 'draining: /readyz answers 404, serving until the drain ends');
          await delay(drainMs);
        }
        // Closes WebSockets with 1001 and the notifier buildApp made from config.
        await app.close();
        await retention?.stop();
        await upstream.close();
        await simulator?.close();
        await database.close();
      })();
      return stopping;
    },
  };
}
