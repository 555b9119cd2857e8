import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { carts, items } from '../../src/db/schema.js';
import type { App } from '../../src/deps.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import { createCart } from '../helpers/fixtures.js';

/**
 * Two instances, each with its own pool, over one PostgreSQL database: repeats of one keyed
 * request that reach both at the same moment still run the write once. PGlite is one
 * process's database, so this runs on PostgreSQL only.
 */
if (!onPostgres) console.log('Idempotency across instances skipped: TEST_DATABASE_URL is not set.');

describe.skipIf(!onPostgres)('Idempotency-Key across two instances', () => {
  let ctx: TestContext;
  let second: App;
  let secondUrl: string;
  let secondDatabase: Database;
  let drop: () => Promise<void>;
  let anna: Session;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    ctx = await startTestApp({ database: await openDatabase({ url: created.url, poolSize: 10 }) });
    secondDatabase = await openDatabase({ url: created.url, poolSize: 10 });
    second = await buildApp({ ...ctx.deps, database: secondDatabase }, { logger: false });
    await second.listen({ host: '127.0.0.1', port: 0 });
    const address = second.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    secondUrl = `http://127.0.0.1:${address.port}`;
    anna = await ctx.login('anna');
  });
  afterAll(async () => {
    await second?.close();
    await secondDatabase?.close();
    await ctx?.close();
    await drop?.();
  });

  it('gives 20 simultaneous repeats on two instances one line with the quantity added once', async () => {
    const cart = await createCart(ctx, anna, { store: null });
    const key = randomUUID();
    const body = JSON.stringify({ cart, part_number: 'PN-2I', quantity: 6 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(`${i % 2 === 0 ? ctx.url : secondUrl}/api/v1/items/`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${anna.token}`,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body,
        });
        return { status: response.status, text: await response.text() };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    const lines = await ctx.database.db.select().from(items).where(eq(items.cartId, cart));
    expect(lines.map((l) => l.quantity)).toEqual([6]);
    const [row] = await ctx.database.db.select().from(carts).where(eq(carts.id, cart));
    expect([row.itemsCount, row.totalQuantity]).toEqual([1, 6]);
  });
});
