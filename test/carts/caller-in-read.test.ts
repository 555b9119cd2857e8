import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { SESSION_ENDED } from '../../src/http/errors.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, onPostgres } from '../helpers/db.js';
import { cartWith, checkedOutCart, checkout, createCart, loginStaff } from '../helpers/fixtures.js';

/**
 * Behind a transaction pooler the cart, the stats and the series look their caller up in the
 * same call as their read (`callerInRead`, migration 0022, decision 0016): one call instead
 * of two; the checkout's claim (0023) and the item add (0027) too. Two services on one PostgreSQL database, one as behind a pooler
 * (DATABASE_POOLER=transaction: unnamed statements, functions) and one direct, must answer
 * every caller alike, and turn away the same tokens.
 */
if (!onPostgres) console.log('caller-in-read: skipped, it needs TEST_DATABASE_URL (a server).');

describe.skipIf(!onPostgres)('the caller looked up with the read, behind a pooler', () => {
  let pooled: TestContext;
  let direct: TestContext;
  let url: string;
  let drop: () => Promise<void>;
  const sessions: Record<string, { pooled: Session; direct: Session }> = {};
  const carts: number[] = [];

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase());
    pooled = await startTestApp({
      database: await openDatabase({ url, pooler: 'transaction', poolSize: 4 }),
    });
    direct = await startTestApp({ database: await openDatabase({ url, poolSize: 4 }) });
    for (const name of ['anna', 'bruno']) {
      sessions[name] = { pooled: await pooled.login(name), direct: await direct.login(name) };
    }
    sessions.dora = { pooled: await loginStaff(pooled), direct: await loginStaff(direct) };
    const anna = sessions.anna.pooled;
    carts.push(
      await cartWith(pooled, anna, {}, [
        ['P-1', 2],
        ['P-2', 5],
      ]),
    );
    carts.push(await checkedOutCart(pooled, anna, {}));
    carts.push(await cartWith(pooled, sessions.bruno.pooled, {}, [['P-3', 7]]));
  }, 60_000);

  afterAll(async () => {
    await pooled?.close();
    await direct?.close();
    await drop?.();
  });

  /** The same request to both services as the same user: both answers. */
  const both = async (user: string, path: string) => {
    const a = await pooled.request('GET', path, { token: sessions[user].pooled.token });
    const b = await direct.request('GET', path, { token: sessions[user].direct.token });
    return [a, b] as const;
  };

  /** Anna's two carts, Bruno's, a missing one; stats and series (made once the carts are). */
  const paths = () => [
    ...[...carts, 999_999].map((id) => `/api/v1/carts/${id}/`),
    '/api/v1/carts/stats/',
    '/api/v1/carts/stats/?created_after=2000-01-01T00:00:00Z',
    '/api/v1/carts/stats/?checkout=true',
    '/api/v1/carts/time-series/?interval=D',
    '/api/v1/carts/time-series/?interval=W&aggregate=items',
    '/api/v1/carts/time-series/?interval=H',
  ];

  it('answers each caller as the direct service does: owner, another customer, staff', async () => {
    const PATHS = paths();
    expect(PATHS[2]).toBe(`/api/v1/carts/${carts[2]}/`);
    const statuses: string[] = [];
    for (const user of ['anna', 'bruno', 'dora']) {
      for (const path of PATHS) {
        const [a, b] = await both(user, path);
        expect(a.status, `${user} ${path}`).toBe(b.status);
        expect(a.body, `${user} ${path}`).toEqual(b.body);
        statuses.push(`${user} ${a.status}`);
      }
    }
    // Anna sees her two carts, Bruno his one, staff all three; nobody the missing one.
    expect(statuses.filter((s) => s === 'anna 200').length).toBe(PATHS.length - 2);
    expect(statuses.filter((s) => s === 'bruno 200').length).toBe(PATHS.length - 3);
    expect(statuses.filter((s) => s === 'dora 200').length).toBe(PATHS.length - 1);
    // A customer's figures are their own; staff's are everyone's.
    const [annaStats] = await both('anna', '/api/v1/carts/stats/');
    const [staffStats] = await both('dora', '/api/v1/carts/stats/');
    expect(annaStats.body).toEqual({ total_quantity: 8, total_items: 3 });
    expect(staffStats.body).toEqual({ total_quantity: 15, total_items: 4 });
  });

  it('makes one call where the direct service makes two (the look-up, the read), for staff and customers', async () => {
    const hot = [
      '/api/v1/carts/stats/',
      '/api/v1/carts/stats/?created_after=2000-01-01T00:00:00Z',
      '/api/v1/carts/time-series/?interval=D',
      '/api/v1/carts/time-series/?interval=W&aggregate=items',
    ];
    for (const user of ['dora', 'anna']) {
      for (const path of [`/api/v1/carts/${carts[0]}/`, ...hot]) {
        const before = [pooled.database.queries, direct.database.queries];
        const [a, b] = await both(user, path);
        expect([a.status, b.status]).toEqual([200, 200]);
        expect(a.body, `${user} ${path}`).toEqual(b.body);
        expect(pooled.database.queries - before[0], `${user} ${path}`).toBe(1);
        expect(direct.database.queries - before[1], `${user} ${path}`).toBe(2);
      }
    }
    // A shape without a function: the caller alone, then the read, as before.
    const before = pooled.database.queries;
    const [a] = await both('anna', '/api/v1/carts/stats/?checkout=true');
    expect(a.status).toBe(200);
    expect(pooled.database.queries - before).toBe(2);
  });

  it('gives a demoted staff member their own figures and carts only, at once', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const dora = sessions.dora.pooled;
    try {
      await admin.query('update users set is_staff = false where id = $1', [dora.userId]);
      for (const path of paths()) {
        const [a, b] = await both('dora', path);
        expect(a.status, path).toBe(b.status);
        expect(a.body, path).toEqual(b.body);
      }
      const stats = await pooled.request('GET', '/api/v1/carts/stats/', { token: dora.token });
      expect(stats.body).toEqual({ total_quantity: 0, total_items: 0 });
      const cart = await pooled.request('GET', `/api/v1/carts/${carts[0]}/`, { token: dora.token });
      expect(cart.status).toBe(404);
    } finally {
      await admin.query('update users set is_staff = true where id = $1', [dora.userId]);
      await admin.end();
    }
  });

  it('checks out as the direct service does in one call fewer, and claims nothing for a token it turns away (migration 0023)', async () => {
    const anna = sessions.anna;
    const lines: [string, number][] = [['P-1', 1]];
    const [mine, theirs] = [
      await cartWith(pooled, anna.pooled, {}, lines),
      await cartWith(direct, anna.direct, {}, lines),
    ];
    const before = [pooled.database.queries, direct.database.queries];
    const [a, b] = [
      await checkout(pooled, anna.pooled, mine),
      await checkout(direct, anna.direct, theirs),
    ];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(pooled.database.queries - before[0]).toBe(direct.database.queries - before[1] - 1);
    expect(a.body).toMatchObject({ cart: mine, timed_out: false });
    expect(Object.keys(a.body).sort()).toEqual(Object.keys(b.body).sort());
    // Again: the record, on either service.
    expect((await checkout(pooled, anna.pooled, mine)).body).toEqual(a.body);
    expect((await checkout(direct, anna.direct, mine)).body).toEqual(a.body);
    // Another's cart, or none: 404 from both.
    for (const id of [carts[2], 999_999]) {
      const [x, y] = [
        await checkout(pooled, anna.pooled, id),
        await checkout(direct, anna.direct, id),
      ];
      expect([x.status, y.status], String(id)).toEqual([404, 404]);
      expect(x.body).toEqual(y.body);
    }

    // Anna's sessions ended: 401 from both, and her cart is neither claimed nor frozen.
    const fresh = await cartWith(pooled, anna.pooled, {}, lines);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const bump = (by: number) =>
      admin.query('update users set session_generation = session_generation + $2 where id = $1', [
        anna.pooled.userId,
        by,
      ]);
    try {
      await bump(1);
      const [x, y] = [
        await checkout(pooled, anna.pooled, fresh),
        await checkout(direct, anna.direct, fresh),
      ];
      expect([x.status, y.status]).toEqual([401, 401]);
      expect(x.body).toEqual({ detail: SESSION_ENDED, code: 'token_not_valid' });
      const { rows } = await admin.query(
        'select checkout_claim, checkout_frozen, checked_out from carts where id = $1',
        [fresh],
      );
      expect(rows[0]).toEqual({ checkout_claim: null, checkout_frozen: false, checked_out: false });
    } finally {
      await bump(-1);
      await admin.end();
    }
    // Nothing held: the same tokens check it out at once (no 409).
    expect((await checkout(pooled, anna.pooled, fresh)).status).toBe(200);
  });

  it('adds a line as the direct service does in one call fewer, and writes nothing for a token it turns away (migration 0027)', async () => {
    const anna = sessions.anna;
    const [mine, theirs] = [
      await createCart(pooled, anna.pooled, {}),
      await createCart(direct, anna.direct, {}),
    ];
    const add = (ctx: TestContext, session: Session, body: object, headers = {}) =>
      ctx.request<Record<string, unknown>>('POST', '/api/v1/items/', {
        token: session.token,
        body,
        headers,
      });
    /** Both services' answers to the same add, the line's own id and instant left out. */
    const addBoth = async (body: (cart: number) => object) => {
      const before = [pooled.database.queries, direct.database.queries];
      const a = await add(pooled, anna.pooled, body(mine));
      const b = await add(direct, anna.direct, body(theirs));
      const calls = [pooled.database.queries - before[0], direct.database.queries - before[1]];
      const strip = ({ id, cart, created, ...rest }: Record<string, unknown>) => ({
        ...rest,
        ...(id === undefined ? {} : { id: typeof id, cart: cart === mine || cart === theirs }),
        ...(created === undefined ? {} : { created: typeof created }),
      });
      expect(strip(a.body)).toEqual(strip(b.body));
      expect(a.status).toBe(b.status);
      return { status: a.status, body: a.body, calls };
    };
    // A new line (blanks around the part number trimmed), then merged: one call fewer.
    for (const quantity of [2, 3]) {
      const { status, calls } = await addBoth((cart) => ({ cart, part_number: ' P-7 ', quantity }));
      expect(status).toBe(201);
      expect(calls).toEqual([1, 2]);
    }
    const line = await addBoth((cart) => ({ cart, part_number: 'P-7', quantity: 1 }));
    expect(line.body).toMatchObject({ part_number: 'P-7', quantity: 6 });
    // Refusals answered alike: over the line's limit, a blank part number, another's cart, a
    // closed cart, no cart.
    const refused: [(cart: number) => object, number][] = [
      [(cart) => ({ cart, part_number: 'P-7', quantity: 999_999 }), 400],
      [(cart) => ({ cart, part_number: '   ', quantity: 1 }), 400],
      [() => ({ cart: carts[2], part_number: 'P-1', quantity: 1 }), 400],
      [() => ({ cart: carts[1], part_number: 'P-1', quantity: 1 }), 400],
      [() => ({ cart: 999_999, part_number: 'P-1', quantity: 1 }), 400],
    ];
    for (const [body, expected] of refused) {
      expect((await addBoth(body)).status, JSON.stringify(body(mine))).toBe(expected);
    }
    // With an Idempotency-Key the caller is looked up first; a repeat gets the first answer.
    const key = { 'idempotency-key': 'add-with-caller-1' };
    const first = await add(
      pooled,
      anna.pooled,
      { cart: mine, part_number: 'P-8', quantity: 1 },
      key,
    );
    const again = await add(
      pooled,
      anna.pooled,
      { cart: mine, part_number: 'P-8', quantity: 1 },
      key,
    );
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    // Anna's sessions ended, or her user erased: 401, and no line added or merged.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const lines = async () =>
      (
        await admin.query(
          'select c.items_count, c.total_quantity, (select json_agg(json_build_array(i.part_number, i.quantity) order by i.part_number) from items i where i.cart_id = c.id) as lines from carts c where c.id = $1',
          [mine],
        )
      ).rows[0];
    const kept = await lines();
    expect(kept).toEqual({
      items_count: 2,
      total_quantity: 7,
      lines: [
        ['P-7', 6],
        ['P-8', 1],
      ],
    });
    try {
      await admin.query(
        'update users set session_generation = session_generation + 1 where id = $1',
        [anna.pooled.userId],
      );
      for (const part_number of ['P-7', 'P-9']) {
        const refusedAdd = await add(pooled, anna.pooled, { cart: mine, part_number, quantity: 1 });
        expect(refusedAdd.status).toBe(401);
        expect(refusedAdd.body).toEqual({ detail: SESSION_ENDED, code: 'token_not_valid' });
      }
      await admin.query(
        'update users set session_generation = session_generation - 1 where id = $1',
        [anna.pooled.userId],
      );
      await admin.query("update users set username = 'erased-anna' where id = $1", [
        anna.pooled.userId,
      ]);
      const erased = await add(pooled, anna.pooled, {
        cart: mine,
        part_number: 'P-9',
        quantity: 1,
      });
      expect(erased.status).toBe(401);
      expect(erased.body).toEqual({ detail: 'User not found.', code: 'token_not_valid' });
      expect(await lines()).toEqual(kept);
    } finally {
      await admin.query('update users set username = $2 where id = $1', [
        anna.pooled.userId,
        anna.pooled.username,
      ]);
      await admin.end();
    }
    // The same token adds again at once.
    expect(
      (await add(pooled, anna.pooled, { cart: mine, part_number: 'P-9', quantity: 1 })).status,
    ).toBe(201);
  });

  it('turns away a token whose session ended or whose user was erased, before any answer', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const bruno = sessions.bruno;
    try {
      await admin.query(
        'update users set session_generation = session_generation + 1 where id = $1',
        [bruno.pooled.userId],
      );
      for (const path of paths()) {
        const [a, b] = await both('bruno', path);
        expect([a.status, b.status], path).toEqual([401, 401]);
        expect(a.body, path).toEqual({ detail: SESSION_ENDED, code: 'token_not_valid' });
        expect(a.body, path).toEqual(b.body);
      }
      await admin.query("update users set username = 'erased-bruno' where id = $1", [
        bruno.pooled.userId,
      ]);
      for (const path of paths()) {
        const [a, b] = await both('bruno', path);
        expect([a.status, b.status], path).toEqual([401, 401]);
        expect(a.body, path).toEqual({ detail: 'User not found.', code: 'token_not_valid' });
      }
    } finally {
      await admin.end();
    }
  });

  it('turns away a missing or forged token without reading anything', async () => {
    const before = pooled.database.queries;
    for (const path of paths()) {
      expect((await pooled.request('GET', path)).status).toBe(401);
      expect((await pooled.request('GET', path, { token: 'forged.token.here' })).status).toBe(401);
    }
    expect(pooled.database.queries).toBe(before);
  });
});
