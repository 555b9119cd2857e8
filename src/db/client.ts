import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: same query surface as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Statements issued so far (tests check that a list costs a fixed number per page). */
  readonly queries: number;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… for a server; undefined for embedded. */
  url?: string;
  /** Embedded: a folder, or undefined for memory. */
  dataDir?: string;
  /** Embedded: start from a dumped data dir (tests start from a migrated snapshot). */
  loadDataDir?: Blob | File;
  /** Server: pool size. */
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite(options.dataDir, options.loadDataDir);
}

async function openPostgres(url: string, max: number): Promise<Database> {
  // Session zone UTC: timestamptz comes back as `… +00` text, which clock.ts formats.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: '-c TimeZone=UTC',
    connectionTimeoutMillis: 5000,
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const counter = { queries: 0 };
  const db = drizzleNodePg(pool, { schema, logger: countingLogger(counter) }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    get queries() {
      return counter.queries;
    },
    migrate: () => migrateNodePg(drizzleNodePg(pool), { migrationsFolder }),
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
  };
}

async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob | File,
): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir: dataDir ? join(dataDir, 'pglite') : undefined,
    loadDataDir,
  });
  await client.exec("set time zone 'UTC'");
  const counter = { queries: 0 };
  const db = drizzlePglite(client, { schema, logger: countingLogger(counter) }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: 'pglite',
    get queries() {
      return counter.queries;
    },
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    ping: async () => {
      if (closed) throw new Error('database closed');
      await db.execute(sql`select 1`);
    },
    close: async () => {
      closed = true;
      await client.close();
    },
  };
}

function countingLogger(counter: { queries: number }) {
  return {
    logQuery: () => {
      counter.queries += 1;
    },
  };
}
