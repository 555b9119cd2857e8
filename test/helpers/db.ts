import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';

/** True when the suite runs against a PostgreSQL server (TEST_DATABASE_URL). */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let snapshot: Blob | undefined;

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
