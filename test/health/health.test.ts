import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';
import { createCart } from '../helpers/fixtures.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('health', () => {
  it('answers /healthz with 200 without a token', async () => {
    const answer = await ctx.request('GET', '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 while the database is reachable, without a token', async () => {
    const answer = await ctx.request('GET', '/readyz');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  it('ignores a bad token on the health endpoints', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const answer = await ctx.request('GET', path, { headers: { authorization: 'Bearer x' } });
      expect(answer.status, path).toBe(200);
    }
  });
});

describe('API documentation', () => {
  it('serves an OpenAPI 3 document listing the cart, item, checkout and auth paths', async () => {
    const answer = await ctx.request('GET', '/api/schema/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = answer.body;
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toBeTypeOf('string');
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/v1/carts/',
      '/api/v1/carts/{id}/',
      '/api/v1/carts/{id}/checkout/',
      '/api/v1/carts/stats/',
      '/api/v1/items/',
      '/api/v1/items/{id}/',
      '/api/v1/auth/jwt/token/',
      '/api/v1/auth/jwt/refresh/',
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(Object.keys(doc.paths['/api/v1/carts/'])).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
    expect(doc.paths['/api/v1/carts/{id}/checkout/']).toHaveProperty('patch');
    expect(doc.paths['/api/v1/auth/jwt/token/']).toHaveProperty('post');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Health and the schema itself are not part of the API.
    expect(paths).not.toContain('/healthz');
    expect(paths).not.toContain('/api/schema/');
  });

  it('redirects /api/schema to /api/schema/', async () => {
    const answer = await ctx.request('GET', '/api/schema');
    expect(answer.status).toBe(308);
    expect(answer.headers.get('location')).toBe('/api/schema/');
  });

  it('serves the documentation page as HTML', async () => {
    let answer = await ctx.request('GET', '/api/docs/');
    for (let hops = 0; hops < 3 && answer.status >= 300 && answer.status < 400; hops++) {
      const location = new URL(answer.headers.get('location') as string, `${ctx.url}/api/docs/`);
      answer = await ctx.request('GET', location.pathname + location.search);
    }
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toMatch(/<html/i);
  });
});

// The embedded database has one connection: a read-only session is all of it. On a server
// the same is tested with a read-only database (test/db/failover.test.ts).
describe.runIf(!onPostgres)('readiness while the database cannot write', () => {
  let ro: TestContext;
  beforeAll(async () => {
    ro = await startTestApp();
  });
  afterAll(() => ro?.close());

  it('answers /readyz 503 and a write 503 with Retry-After while read-only; both back after', async () => {
    const anna = await ro.login('anna');
    const cart = await createCart(ro, anna);
    const add = () =>
      ro.request('POST', '/api/v1/items/', {
        token: anna.token,
        body: { cart, part_number: 'P-1', quantity: 1 },
      });
    await ro.database.db.execute(sql`set default_transaction_read_only = on`);
    try {
      const ready = await ro.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable', detail: 'database read-only' });
      expect((await ro.request('GET', '/healthz')).status).toBe(200);
      // 25006 read_only_sql_transaction: what a standby answers a write.
      const refused = await add();
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await ro.database.db.execute(sql`set default_transaction_read_only = off`);
    }
    expect((await ro.request('GET', '/readyz')).status).toBe(200);
    expect((await add()).status).toBe(201);
  });
});

describe('readiness without a database', () => {
  let down: TestContext;
  let token: string;
  beforeAll(async () => {
    down = await startTestApp();
  });
  afterAll(() => down?.close());

  it('answers /readyz with 503 when the database does not answer in time', async () => {
    const ping = down.database.ping;
    down.database.ping = () => new Promise<void>(() => {});
    try {
      const answer = await down.request('GET', '/readyz');
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ status: 'unavailable' });
    } finally {
      down.database.ping = ping;
    }
    expect((await down.request('GET', '/readyz')).status).toBe(200);
  });

  it('answers /readyz with 503 once the database is gone, /healthz still 200', async () => {
    token = (await down.login('anna')).token;
    expect((await down.request('GET', '/readyz')).status).toBe(200);
    await down.database.close();
    // Closed here: ctx.close() must not close it a second time.
    down.database.close = async () => {};
    const answer = await down.request('GET', '/readyz');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toMatchObject({ status: 'unavailable' });
    expect(answer.text).not.toMatch(/stack|Error:|select /i);
    expect((await down.request('GET', '/healthz')).status).toBe(200);
  });

  it('answers a request that needs the database with a JSON 500 without SQL or stack', async () => {
    const answer = await down.request('GET', '/api/v1/carts/', { token });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ detail: expect.any(String), code: 'server_error' });
    expect(answer.text).not.toMatch(/stack|Error:|select |from |pool|\.ts:\d+/i);
  });
});
