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
 * The migration that adds the control rollups (`*_control_days`): a database of the release
 * before it, holding controls (pending, verified, chosen and random) and controls rejected
 * through the API (gone from `controls`, kept in the audit trail as `control.rejected`), is
 * migrated; the rollups count every one of them on its store, UTC day and kind, and from then
 * on the triggers keep them. On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
const work = mkdtempSync(join(tmpdir(), 'ordering-control-days-migration-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const foldersBefore = () => migrationsBefore(work, '_control_days');

// Controls 1-3 exist; 4 (chosen) and 5 (random, rejected as the audit trail's `before` says)
// were rejected; 6 was rejected by an event whose `before` lacks `created` and `is_random`
// (its `control.created` event has them). Control 2 is verified; 23:30 on 1 May is 1 May.
const SEED = [
  `insert into users (id, username, created, session_generation) values
    (7, 'anna', now(), 0), (8, 'carla', now(), 0)`,
  `insert into stores (id, gln, name, created) values
    (1, '4000000000001', 'A', now()), (2, '4000000000002', 'B', now())`,
  `insert into controls (id, created, verified_at, is_random, status, user_id, store_id,
      controller_id) values
    (1, '2026-05-01T23:30:00Z', null, false, 'pending', 7, 1, 8),
    (2, '2026-05-01T08:00:00Z', '2026-05-02T08:00:00Z', false, 'verified', 7, 1, 8),
    (3, '2026-05-02T00:00:00Z', null, true, 'pending', 7, 2, null)`,
  `insert into audit_events (created, kind, via, actor_id, store_id, user_id, object_id,
      before, after) values
    ('2026-05-01T09:00:00Z', 'control.created', 'api', 8, 1, 7, 4, null,
      '{"status":"pending","carts":[1],"is_random":false}'),
    ('2026-05-03T09:00:00Z', 'control.rejected', 'api', 8, 1, 7, 4,
      '{"status":"pending","created":"2026-05-01T09:00:00.000000Z","is_random":false,"controller":8,"carts":[1]}',
      null),
    ('2026-05-02T10:00:00Z', 'control.created', 'random-draw', null, 2, 7, 5, null,
      '{"status":"pending","carts":[2],"is_random":true}'),
    ('2026-05-02T11:00:00Z', 'control.rejected', 'api', 8, 2, 7, 5,
      '{"status":"pending","created":"2026-05-02T10:00:00.000000Z","is_random":true,"controller":null,"carts":[2]}',
      null),
    ('2026-05-02T12:00:00Z', 'control.created', 'random-draw', null, 2, 7, 6, null,
      '{"status":"pending","carts":[3],"is_random":true}'),
    ('2026-05-04T12:00:00Z', 'control.rejected', 'api', 8, 2, 7, 6, '{"status":"pending"}', null)`,
];
const DAYS = `select store_id as store, day::text as day, is_random as random, created, verified,
  rejected from control_days order by store_id, day, is_random`;
const BACKFILLED = [
  { store: 1, day: '2026-05-01', random: false, created: 3, verified: 1, rejected: 1 },
  { store: 2, day: '2026-05-02', random: true, created: 3, verified: 0, rejected: 2 },
];
/** After the migration, through the triggers: control 1 verified, control 3 rejected. */
const AFTER = [
  `update controls set status = 'verified', verified_at = now() where id = 1`,
  `delete from controls where id = 3`,
  `update control_outcomes set outcome = 'rejected' where control_id = 3`,
  `insert into controls (id, created, is_random, status, user_id, store_id) values
    (9, '2026-05-01T12:00:00Z', true, 'pending', 7, 1)`,
];
const UPDATED = [
  { store: 1, day: '2026-05-01', random: false, created: 3, verified: 2, rejected: 1 },
  { store: 1, day: '2026-05-01', random: true, created: 1, verified: 0, rejected: 0 },
  { store: 2, day: '2026-05-02', random: true, created: 3, verified: 0, rejected: 3 },
];

describe('migration *_control_days', () => {
  it('counts the controls there are and those rejected, from the audit trail (PGlite)', async () => {
    const client = await PGlite.create();
    try {
      const db = drizzlePglite(client);
      await migratePglite(db, { migrationsFolder: foldersBefore() });
      for (const text of SEED) await client.exec(text);
      await migratePglite(db, { migrationsFolder });
      expect((await client.query(DAYS)).rows).toEqual(BACKFILLED);
      for (const text of AFTER) await client.exec(text);
      expect((await client.query(DAYS)).rows).toEqual(UPDATED);
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
      for (const text of SEED) await client.query(text);
      await migratePg(db, { migrationsFolder });
      expect((await client.query(DAYS)).rows).toEqual(BACKFILLED);
      for (const text of AFTER) await client.query(text);
      expect((await client.query(DAYS)).rows).toEqual(UPDATED);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
