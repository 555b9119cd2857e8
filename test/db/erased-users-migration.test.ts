import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/db/client.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import { migrationsBefore } from '../helpers/migrations.js';

/**
 * The migration that marks erased users (`*_erased_users`): a database of the release
 * before it, holding a tombstone made by the old `users erase` (`erased:<own id>`) and a
 * live user, is migrated; the tombstone is marked and its sessions end, the live user is
 * not touched. On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
const work = mkdtempSync(join(tmpdir(), 'ordering-erased-migration-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const foldersBefore = () => migrationsBefore(work, '_erased_users');

const SEED = `insert into users (id, username, created, session_generation) values
  (7, 'erased:7', now(), 2), (8, 'anna', now(), 0)`;
const READ =
  'select id, erased_at is not null as erased, session_generation as gen from users order by id';

describe('migration *_erased_users', () => {
  it('marks the tombstones of earlier erasures and ends their sessions (PGlite)', async () => {
    const client = await PGlite.create();
    try {
      const db = drizzlePglite(client);
      await migratePglite(db, { migrationsFolder: foldersBefore() });
      await client.exec(SEED);
      await migratePglite(db, { migrationsFolder });
      expect((await client.query(READ)).rows).toEqual([
        { id: 7, erased: true, gen: 3 },
        { id: 8, erased: false, gen: 0 },
      ]);
    } finally {
      await client.close();
    }
  });

  it.skipIf(!onPostgres)('the same on PostgreSQL', async () => {
    const database = await createPostgresDatabase({ empty: true });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const db = drizzlePg(client);
      await migratePg(db, { migrationsFolder: foldersBefore() });
      await client.query(SEED);
      await migratePg(db, { migrationsFolder });
      expect((await client.query(READ)).rows).toEqual([
        { id: 7, erased: true, gen: 3 },
        { id: 8, erased: false, gen: 0 },
      ]);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
