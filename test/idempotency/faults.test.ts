import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { ADD_ITEM } from '../../src/items/logic.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import { createCart } from '../helpers/fixtures.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

/**
 * A keyed item add whose database connection is cut at each moment of its transaction: the
 * key and the line are stored together or not at all, so the retry under the same key
 * either answers the first answer or runs now, and the quantity is added once. Cutting
 * connections needs a PostgreSQL server behind a proxy.
 */
if (!onPostgres) {
  console.log(
    'Idempotency fault tests skipped: they need a PostgreSQL server (TEST_DATABASE_URL).',
  );
}

describe.runIf(onPostgres)('Idempotency-Key when the database connection is cut', () => {
  let ctx: TestContext;
  let proxy: TcpProxy;
  let direct: pg.Client;
  let drop: () => Promise<void>;
  let anna: Session;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    const target = new URL(created.url);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    const database: Database = await openDatabase({
      url: proxy.urlFor(created.url),
      poolSize: 4,
      poolTimeoutMs: 500,
      statementTimeoutMs: 500,
    });
    ctx = await startTestApp({ database });
    direct = new pg.Client({ connectionString: created.url });
    await direct.connect();
    anna = await ctx.login('anna');
  });
  afterAll(async () => {
    proxy?.restore();
    await ctx?.close();
    await proxy?.close();
    await direct?.end();
    await drop?.();
  });

  const moments: [string, 'before' | 'after'][] = [
    ['insert into "idempotency_keys"', 'before'],
    // The item add is a prepared statement: its name is on the wire at every execution.
    [String(ADD_ITEM.name), 'before'],
    ['update "idempotency_keys"', 'before'],
    ['delete from "idempotency_keys"', 'before'],
    ['commit', 'before'],
    ['commit', 'after'],
  ];

  it.each(moments)(
    'cut at %s (%s): the retry answers once, the quantity is added once',
    async (text, when) => {
      const cart = await createCart(ctx, anna, { store: null });
      const key = randomUUID();
      const add = () =>
        ctx.request('POST', '/api/v1/items/', {
          token: anna.token,
          body: { cart, part_number: 'PN-CUT', quantity: 5 },
          headers: { 'idempotency-key': key },
        });
      const cuts = proxy.cuts;
      proxy.cutOn(text, when);
      const first = await add();
      expect(proxy.cuts).toBeGreaterThan(cuts);
      // Cut before it reached the server: nothing stored. Cut after COMMIT: asked, committed.
      expect(first.status).toBe(when === 'before' ? 503 : 201);
      const retry = await add();
      expect(retry.status).toBe(201);
      if (first.status === 201) {
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.text).toBe(first.text);
      } else {
        expect(retry.headers.get('idempotent-replayed')).toBeNull();
      }
      const { rows } = await direct.query('select quantity from items where cart_id = $1', [cart]);
      expect(rows).toEqual([{ quantity: 5 }]);
      const keys = await direct.query('select status from idempotency_keys where key = $1', [key]);
      expect(keys.rows).toEqual([{ status: 201 }]);
    },
  );
});
