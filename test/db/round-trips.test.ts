import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedPool } from '../../src/db/pool.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';

/**
 * The round trips of a single statement (src/db/pool.ts, issue 19). A write runs in a
 * transaction of its own so that a commit whose answer is lost can be looked up by its id:
 * BEGIN, the id and the statement go in one round trip, COMMIT in a second (it still leaves
 * only once the statement has answered). A read that needs settings for itself alone (behind
 * a pooler; a plan made once) takes one: the settings and the read in one implicit
 * transaction. One connection per pool, so that what one statement leaves on it is seen by
 * the next.
 */
if (!onPostgres) {
  console.log('Round trip tests skipped: they need a PostgreSQL server (TEST_DATABASE_URL).');
}

const TABLE = `create table if not exists notes (id int primary key, body text)`;

describe.runIf(onPostgres)('a single statement', () => {
  let url: string;
  let drop: () => Promise<void>;
  let direct: pg.Client;
  const pools: GuardedPool[] = [];

  /** A pool of one connection, and the round trips it makes (one ReadyForQuery each). */
  function open(pooled = false) {
    const pool = new GuardedPool({
      url,
      size: 1,
      acquireTimeoutMs: 2000,
      statementTimeoutMs: 300,
      pooled,
    });
    pools.push(pool);
    const trips = { count: 0 };
    pool.on('connect', (client) => {
      // biome-ignore lint/suspicious/noExplicitAny: pg's connection is not in its typings
      (client as any).connection.on('readyForQuery', () => {
        trips.count += 1;
      });
    });
    return { pool, trips };
  }

  const stored = async (id: number) =>
    (await direct.query('select body from notes where id = $1', [id])).rows[0]?.body;

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase({ empty: true }));
    direct = new pg.Client({ connectionString: url });
    await direct.connect();
    await direct.query(TABLE);
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await direct?.end();
    await drop?.();
  });

  it('takes two round trips (BEGIN with the statement, then COMMIT) and commits', async () => {
    const { pool, trips } = open();
    await pool.query('select 1'); // the connection opened (its startup counts a round trip)
    for (const [id, name] of [
      [1, undefined],
      [2, 's_verified_write_test'],
      [3, 's_verified_write_test'], // prepared by the one before
    ] as const) {
      const before = trips.count;
      const { rows } = await pool.query(
        { name, text: 'insert into notes (id, body) values ($1, $2) returning id, body' },
        [id, `note ${id}`],
      );
      expect(trips.count - before).toBe(2);
      expect(rows).toEqual([{ id, body: `note ${id}` }]);
      expect(await stored(id)).toBe(`note ${id}`);
    }
  });

  it('rolls back a statement that fails, and the connection serves the next write', async () => {
    const { pool } = open();
    await pool.query('insert into notes (id, body) values ($1, $2)', [10, 'first']);
    // Two rows in one statement, the second refused: neither is stored.
    const failed = pool.query(
      'with a as (insert into notes (id, body) values ($1, $2)) insert into notes (id, body) values ($3, $4)',
      [11, 'lost', 10, 'again'],
    );
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await stored(11)).toBeUndefined();
    expect(await stored(10)).toBe('first');
    // Same (only) connection, no transaction left open on it.
    await pool.query('insert into notes (id, body) values ($1, $2)', [12, 'next']);
    expect(await stored(12)).toBe('next');
  });

  it('a named statement that cannot be prepared fails the same way every time', async () => {
    // Its name must not be taken as prepared on the connection, or the next run would bind
    // a statement that does not exist (26000) instead of failing as it should (42P01).
    const { pool } = open();
    const broken = { name: 's_round_trips_broken', text: 'insert into no_such_table values ($1)' };
    const read = {
      ...broken,
      text: 'select * from no_such_table where id = $1',
      genericPlan: true,
    };
    for (let i = 0; i < 2; i++) {
      await expect(pool.query(broken, [1])).rejects.toMatchObject({ code: '42P01' });
      await expect(
        pool.query({ ...read, name: 's_round_trips_broken_read' }, [1]),
      ).rejects.toMatchObject({
        code: '42P01',
      });
    }
    // The connection still serves.
    expect((await pool.query('select 3 as n')).rows).toEqual([{ n: 3 }]);
  });

  it('behind a transaction pooler, runs under the session settings set in its transaction', async () => {
    const { pool, trips } = open(true);
    await pool.query('select 1');
    const before = trips.count;
    const { rows } = await pool.query(
      `insert into notes (id, body) values ($1, current_setting('statement_timeout') || ' ' ||
        current_setting('TimeZone')) returning body`,
      [20],
    );
    expect(trips.count - before).toBe(2);
    expect(rows).toEqual([{ body: '300ms UTC' }]);
    // The bound holds for the statement itself: cancelled, nothing stored.
    const slow = pool.query(
      'with w as (select pg_sleep(1)) insert into notes (id, body) select $1, $2 from w',
      [21, 'slow'],
    );
    await expect(slow).rejects.toMatchObject({ code: '57014' });
    expect(await stored(21)).toBeUndefined();
  });

  /** A setting as the connection has it outside any transaction of ours. */
  const sessionSetting = async (pool: GuardedPool, name: string) => {
    const client = await pool.connect();
    try {
      return (await client.query(`select current_setting('${name}') as v`)).rows[0].v;
    } finally {
      client.release();
    }
  };

  it('reads behind a pooler in one round trip, under settings that end with it', async () => {
    const { pool, trips } = open(true);
    await pool.query('select 1');
    const before = trips.count;
    const { rows } = await pool.query(
      "select current_setting('statement_timeout') as timeout, current_setting('TimeZone') as zone",
    );
    expect(trips.count - before).toBe(1);
    expect(rows).toEqual([{ timeout: '300ms', zone: 'UTC' }]);
    expect(await sessionSetting(pool, 'statement_timeout')).toBe('0');
    // The bound holds for the read itself: cancelled by the server.
    await expect(pool.query('select pg_sleep(1)')).rejects.toMatchObject({ code: '57014' });
    // A read that fails leaves nothing open: the next one runs.
    await expect(pool.query('select 1 / (random() * 0)::int')).rejects.toMatchObject({
      code: '22012',
    });
    expect((await pool.query('select 2 as n')).rows).toEqual([{ n: 2 }]);
  });

  it('reads with the plan made once in one round trip; the setting ends with the read', async () => {
    const { pool, trips } = open();
    await pool.query('select 1');
    const before = trips.count;
    const { rows } = await pool.query(
      { name: 's_round_trips_plan', text: 'select current_setting($1) as mode', genericPlan: true },
      ['plan_cache_mode'],
    );
    expect(trips.count - before).toBe(1);
    expect(rows).toEqual([{ mode: 'force_generic_plan' }]);
    expect(await sessionSetting(pool, 'plan_cache_mode')).toBe('auto');
  });
});
