import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { SpanKind } from '@opentelemetry/api';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { tracingOn, withSpan } from '../tracing/spans.js';
import { DatabaseReadOnly } from './errors.js';
import { GuardedPool, isWrite, sessionSettings, WRITABLE_CHECK } from './pool.js';
import * as schema from './schema.js';
import type { Run, Statement } from './statement.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: same query surface as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const here = dirname(fileURLToPath(import.meta.url));
/** drizzle/ at the package root: two folders up from src/db/, three from the build's dist/src/db/. */
export const migrationsFolder =
  [join(here, '../../drizzle'), join(here, '../../../drizzle')].find((folder) =>
    existsSync(join(folder, 'meta/_journal.json')),
  ) ?? join(here, '../../drizzle');

/** The statement's first keyword (`select`, `insert`, `with`…): its kind, for span names. */
const operation = (text: string) => /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? 'statement';

/** What a statement's span holds: its text with placeholders and its name, never the values. */
const statementAttributes = (statement: Statement) => ({
  'db.system.name': 'postgresql',
  'db.operation.name': operation(statement.text),
  'db.query.text': statement.text,
  ...(statement.name ? { 'db.postgresql.plan': statement.name } : {}),
});

/** Connections of the pool as metrics report them; the embedded database has one and no pool. */
export interface PoolStats {
  max: number;
  open: number;
  idle?: number;
  waiting?: number;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Behind a transaction pooler (DATABASE_POOLER=transaction): hot reads run as functions. */
  readonly pooled: boolean;
  poolStats(): PoolStats;
  /** Statements issued so far (tests check that a list costs a fixed number per page). */
  readonly queries: number;
  /** One hand-written statement (src/db/statement.ts); a write runs in a verified transaction. */
  run: Run;
  /** The same, inside a transaction drizzle opened (a write that also records other rows). */
  runIn(tx: Tx | Db): Run;
  /** Statements in one transaction: committed (verified) when `work` resolves, else rolled back. */
  transaction<T>(work: (run: Run) => Promise<T>): Promise<T>;
  migrate(): Promise<void>;
  /** Embedded only: the data directory as a gzipped tarball, taken inside this process. */
  dumpDataDir?(): Promise<Blob | File>;
  /** Resolves when the database answers and can write (a standby or read-only session cannot). */
  ping(): Promise<void>;
  /**
   * Behind a transaction pooler: true when the server connections already default to the
   * session settings (ALTER ROLE/DATABASE … SET), so single reads go without them from now
   * on (GuardedPool.adoptServerDefaults). False otherwise, and on a direct connection or PGlite.
   */
  adoptServerDefaults(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… for a server; undefined for embedded. */
  url?: string;
  /** Embedded: a folder, or undefined for memory. */
  dataDir?: string;
  /** Embedded: start from a dumped data dir (tests start from a migrated snapshot). */
  loadDataDir?: Blob | File;
  /** Embedded with a dataDir: who holds its lock, named to a second opener it refuses. */
  lockRole?: string;
  /** Server: pool size. */
  poolSize?: number;
  /** Server: bound on the wait for a pool connection (queue plus connecting). */
  poolTimeoutMs?: number;
  /** Server: statement_timeout; a statement with no answer drops its connection 1 s later. */
  statementTimeoutMs?: number;
  /**
   * Server: `transaction` when `url` is a transaction pooler (PgBouncer): no startup
   * parameters, settings per transaction, reads in a transaction, no named statements.
   */
  pooler?: 'none' | 'transaction';
  /** Server: the connection migrations run over (default `url`), e.g. direct beside a pooler. */
  migrationUrl?: string;
  /** Server: where connection errors and unknown commit outcomes are reported. */
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options);
  return openPglite(options.dataDir, options.loadDataDir, options.lockRole);
}

/** Two instances starting together must not both apply the same migration. */
const MIGRATION_LOCK = 727_274_001;

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { log } = options;
  const pooled = options.pooler === 'transaction';
  let reported = 0;
  const pool = new GuardedPool({
    url,
    pooled,
    size: options.poolSize ?? 10,
    acquireTimeoutMs: options.poolTimeoutMs ?? 3000,
    statementTimeoutMs: options.statementTimeoutMs ?? 5000,
    onConnectionError: (error) => {
      // One line per second at most: a restart drops every connection at once.
      const now = Date.now();
      if (now - reported < 1000) return;
      reported = now;
      log?.warn({ err: { message: error.message } }, 'database connection lost');
    },
    onUnknownCommit: (xid) =>
      log?.error({ xid }, 'commit outcome unknown: the database did not come back in time'),
  });
  const counter = { queries: 0 };
  const db = drizzleNodePg(pool, { schema, logger: countingLogger(counter) }) as unknown as Db;
  const runOn =
    (client: pg.Pool | pg.PoolClient): Run =>
    async <Row>(statement: Statement, values: unknown[]) => {
      counter.queries += 1;
      // Named (prepared once per connection) only on a direct connection.
      const name = pooled ? undefined : statement.name;
      const { unverifiedWrite } = statement;
      // Behind a pooler, a hot read runs as its function: plans kept per server connection.
      const text = pooled ? (statement.pooled ?? statement.text) : statement.text;
      // A function standing for a write is still run as one (a verified transaction).
      const write =
        statement.write === true || (text !== statement.text && isWrite(statement.text));
      const genericPlan = name !== undefined && statement.genericPlan;
      const result = await client.query({
        name,
        text,
        values,
        unverifiedWrite,
        genericPlan,
        write,
      } as pg.QueryConfig);
      return result.rows as Row[];
    };
  return {
    db,
    kind: 'postgres',
    pooled,
    poolStats: () => ({
      max: pool.options.max,
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    get queries() {
      return counter.queries;
    },
    run: runOn(pool),
    runIn: (tx) => runOn(sessionClient<pg.PoolClient>(tx)),
    transaction: (work) => {
      counter.queries += 2;
      return pool.inTransaction((client) => work(runOn(client)));
    },
    migrate: () => migratePostgres(options.migrationUrl ?? url, options.poolTimeoutMs ?? 3000),
    ping: () => pool.checkWritable(),
    adoptServerDefaults: () => pool.adoptServerDefaults(),
    close: () => pool.end(),
  };
}

/**
 * Migrations on a connection of their own, in ONE transaction that first takes a
 * transaction-level advisory lock: concurrent starts apply them once (the second waits, then
 * finds them applied), and the lock ends with the transaction whatever happens — through a
 * transaction pooler too, where a session lock would stay on a server connection. No
 * statement timeout (an index on a big table takes long). The bookkeeping is drizzle's
 * (`drizzle.__drizzle_migrations`, the same rows its migrator writes). A lost connection fails
 * the attempt (the caller retries); it never ends the process.
 */
async function migratePostgres(url: string, connectTimeoutMs: number): Promise<void> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
  });
  client.on('error', () => {});
  await client.connect();
  try {
    // Timeouts 0: off for this transaction (whatever the role's or the server's defaults).
    await client.query(
      `begin; select pg_advisory_xact_lock(${MIGRATION_LOCK}), ${sessionSettings(0)
        .map(([name, value]) => `set_config('${name}', '${value}', true)`)
        .join(', ')}`,
    );
    try {
      await applyMigrations(client);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    }
  } finally {
    client.end().catch(() => {});
  }
}

/** The pending migrations of `drizzle/`, on a connection inside the migration transaction. */
async function applyMigrations(client: pg.Client): Promise<void> {
  await client.query('create schema if not exists drizzle');
  await client.query(`create table if not exists drizzle.__drizzle_migrations (
    id serial primary key, hash text not null, created_at bigint)`);
  const { rows } = await client.query<{ created_at: string }>(
    'select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
  );
  const last = rows[0] ? Number(rows[0].created_at) : undefined;
  for (const migration of readMigrationFiles({ migrationsFolder })) {
    if (last !== undefined && last >= migration.folderMillis) continue;
    for (const text of migration.sql) await client.query(text);
    await client.query(
      'insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)',
      [migration.hash, migration.folderMillis],
    );
  }
}

async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob | File,
  lockRole = 'another process',
): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Loaded only for the embedded database: a server-backed instance never holds them in
  // memory (the lock's native addon neither).
  const [{ lockDataDir }, { PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] =
    await Promise.all([
      import('./data-dir-lock.js'),
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
  // Single-process: a second process on the same files would corrupt them.
  const unlock = dataDir ? lockDataDir(dataDir, lockRole) : () => {};
  let client: PGlite;
  try {
    client = await PGlite.create({
      dataDir: dataDir ? join(dataDir, 'pglite') : undefined,
      loadDataDir,
    });
    await client.exec("set time zone 'UTC'");
  } catch (error) {
    unlock();
    throw error;
  }
  const counter = { queries: 0 };
  const db = drizzlePglite(client, { schema, logger: countingLogger(counter) }) as unknown as Db;
  let closed = false;
  const runOn =
    (target: Pick<PGlite, 'query'>): Run =>
    async <Row>(statement: Statement, values: unknown[]) => {
      counter.queries += 1;
      if (!tracingOn()) return (await target.query<Row>(statement.text, values)).rows;
      // With tracing on, a span per statement, as the pg instrumentation makes on the server.
      return withSpan(
        `db ${operation(statement.text)}`,
        statementAttributes(statement),
        async () => (await target.query<Row>(statement.text, values)).rows,
        SpanKind.CLIENT,
      );
    };
  return {
    db,
    kind: 'pglite',
    pooled: false,
    poolStats: () => ({ max: 1, open: closed ? 0 : 1 }),
    get queries() {
      return counter.queries;
    },
    run: runOn(client),
    runIn: (tx) => runOn(sessionClient<Pick<PGlite, 'query'>>(tx)),
    transaction: (work) => {
      counter.queries += 2;
      return client.transaction((tx) => work(runOn(tx)));
    },
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    adoptServerDefaults: async () => false,
    ping: async () => {
      if (closed) throw new Error('database closed');
      const { rows } = await client.query<{ recovery: boolean; read_only: boolean }>(
        WRITABLE_CHECK,
      );
      if (rows[0]?.recovery || rows[0]?.read_only) throw new DatabaseReadOnly();
    },
    close: async () => {
      closed = true;
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
    dumpDataDir: () => client.dumpDataDir('gzip'),
  };
}

/** The connection (or PGlite transaction) under a drizzle transaction. */
function sessionClient<Client>(tx: Tx | Db): Client {
  // drizzle keeps it on the transaction's session; both drivers name it `client`.
  return (tx as unknown as { session: { client: Client } }).session.client;
}

function countingLogger(counter: { queries: number }) {
  return {
    logQuery: () => {
      counter.queries += 1;
    },
  };
}
