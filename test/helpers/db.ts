import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { pgbouncerInstalled, startPgBouncer, viaPgBouncer } from './pgbouncer.js';

/** True when the suite runs against a PostgreSQL server (TEST_DATABASE_URL). */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * CI's PostgreSQL pass (`TEST_SERVER_PASS=1`, .ci/run): tests of the embedded database alone
 * (the admin command on a DATA_DIR, backups of PGlite) ran in the embedded pass just before;
 * they skip here rather than run twice (vitest.config.ts does the same for whole files).
 */
export const embeddedOnlySkipped = Boolean(process.env.TEST_SERVER_PASS);

let snapshot: Blob | undefined;

/**
 * A DATA_DIR of its own holding the migrated embedded database (a copy of global setup's
 * template, removed at the end of the run), for a service process whose subject is not its
 * first start: it opens the database (~4 s to ready) instead of running initdb and the
 * migrations (~10 s, twice the CPU). A first start is tested on fresh DATA_DIRs
 * (test/admin/demo-start.test.ts, test/production-wiring.test.ts).
 */
export function migratedDataDir(): string {
  const dir = mkdtempSync(join(inject('dataDirCopies'), 'data-'));
  cpSync(inject('dataDirTemplate'), dir, { recursive: true });
  return dir;
}

/** TEST_PGBOUNCER=1: server connections per database, fewer than the app's pool of 20. */
const PGBOUNCER_SERVER_POOL = 3;
if (viaPgBouncer && !pgbouncerInstalled) {
  console.log(
    'TEST_PGBOUNCER=1 ignored: pgbouncer is not installed (apt-get install -y pgbouncer).',
  );
}

/**
 * A fresh, migrated database for one test file: a copy of the template database on
 * PostgreSQL, or a PGlite instance loaded from the migrated snapshot.
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    snapshot ??= new Blob([readFileSync(inject('pgliteSnapshot'))]);
    return openDatabase({ loadDataDir: snapshot });
  }
  const { url: target, drop } = await createPostgresDatabase();
  if (viaPgBouncer && pgbouncerInstalled) {
    // Through PgBouncer in transaction mode, with fewer server connections than the app's
    // pool: consecutive transactions of one app connection run on different server ones.
    const bouncer = await startPgBouncer(target, PGBOUNCER_SERVER_POOL);
    const database = await openDatabase({
      url: bouncer.urlFor(target),
      pooler: 'transaction',
      poolSize: 20,
    });
    const close = database.close;
    database.close = async () => {
      await close();
      await bouncer.stop();
      await drop();
    };
    return database;
  }
  const database = await openDatabase({ url: target, poolSize: 20 });
  const close = database.close;
  database.close = async () => {
    await close();
    await drop();
  };
  return database;
}

/**
 * A fresh PostgreSQL database (a copy of the migrated template, or empty), for tests that
 * open it their own way (through a proxy, from another process).
 */
export async function createPostgresDatabase(
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const name = `ordering_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      options.empty
        ? `create database ${name}`
        : `create database ${name} template ${inject('pgTemplate')}`,
    );
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const cleaner = new pg.Client({ connectionString: url });
      await cleaner.connect();
      await cleaner.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await cleaner.end();
    },
  };
}
