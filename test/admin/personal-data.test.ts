import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError, grantRole } from '../../src/admin/commands.js';
import { readErasures } from '../../src/admin/erasure-journal.js';
import { eraseUser, exportUser } from '../../src/admin/personal-data.js';
import { carts, checkouts, restoreCodes, shoppingLists, users } from '../../src/db/schema.js';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { restoreJobsDone } from '../helpers/fixtures.js';
import { makeShopData, rollupsAndFresh, snapshot } from './shop-data.js';

/**
 * Export and erasure of one person's data (decision 0009), on the demo shop's data made
 * through the API; run on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
let ctx: TestContext;
let people: Awaited<ReturnType<typeof makeShopData>>;

beforeAll(async () => {
  ctx = await startTestApp();
  const { seedDemo } = await import('../../src/admin/commands.js');
  await seedDemo(ctx.database.db, ctx.clock.nowMicros());
  people = await makeShopData(ctx);
  // The restore code is issued after the answer (look-up and mail in the background).
  await restoreJobsDone(ctx);
});
afterAll(() => ctx?.close());

const now = () => ({ nowMicros: ctx.clock.nowMicros() });

async function staffFigures() {
  const carla = await ctx.login('carla');
  const get = async (path: string) => (await ctx.request('GET', path, { token: carla.token })).body;
  return {
    stats: await get('/api/v1/carts/stats/'),
    series: await get('/api/v1/carts/time-series/?aggregate=items'),
    count: (await get('/api/v1/carts/')).count,
  };
}

describe('users export', () => {
  it('holds the profile, carts with lines and checkouts, controls, lists, favourites, restore codes without hashes', async () => {
    const doc = await exportUser(ctx.database.db, 'anna', '2026-03-02T10:00:00.000Z');
    expect(doc.user).toMatchObject({ id: people.anna.id, username: 'anna' });
    expect(doc.user.email).toMatch(/@/);
    expect(doc.memberships.length).toBeGreaterThan(0);
    expect(doc.favorites).toEqual([people.anna.organization]);
    expect(doc.carts).toHaveLength(3);
    const checkedOut = doc.carts.filter((c) => c.checked_out);
    expect(checkedOut).toHaveLength(2);
    for (const cart of checkedOut) expect(cart.checkout?.order_number).toBeTruthy();
    expect(doc.carts.flatMap((c) => c.lines.map((l) => [l.part_number, l.quantity]))).toEqual(
      expect.arrayContaining([
        ['P-1', 2],
        ['P-2', 5],
        ['P-3', 1],
        ['P-2', 4],
      ]),
    );
    expect(doc.controls_about_user).toHaveLength(1);
    expect(doc.controls_about_user[0]).toMatchObject({ user: 'anna', controller: 'carla' });
    expect(doc.controls_about_user[0].carts.length).toBeGreaterThan(0);
    // The audit trail's events about anna (carla's control of her), and none of others'.
    expect(doc.audit_events.map((e) => e.kind)).toEqual(['control.created']);
    expect(doc.audit_events[0]).toMatchObject({
      user: people.anna.id,
      actor: { username: 'carla' },
    });
    // The staff member by username only, as before the console's names (issue 32).
    expect(doc.audit_events[0].actor).toEqual({ id: expect.any(Number), username: 'carla' });
    expect(doc.audit_events[0]).not.toHaveProperty('customer');
    expect(doc.shopping_lists).toEqual([
      expect.objectContaining({ name: 'Monday', items: [expect.anything(), expect.anything()] }),
    ]);
    expect(doc.restore_codes).toEqual([
      {
        variant: expect.any(String),
        created: expect.any(String),
        expires_at: expect.any(String),
        used_at: null,
      },
    ]);
    const text = JSON.stringify(doc);
    const [code] = await ctx.database.db.select().from(restoreCodes);
    expect(text).not.toContain(code.codeHash);
    expect(text).not.toMatch(/hash/i);

    // The controller's side: carla's export lists the control she made.
    const carla = await exportUser(ctx.database.db, 'carla', '2026-03-02T10:00:00.000Z');
    expect(carla.controls_by_user).toEqual([expect.objectContaining({ user: 'anna' })]);
  });

  it('refuses an unknown user', async () => {
    await expect(exportUser(ctx.database.db, 'nobody', 'x')).rejects.toThrow(
      new AdminError('unknown user "nobody"'),
    );
  });
});

describe('users erase', () => {
  it('empties the profile, ends sessions, deletes lists; keeps bookkeeping; the figures stay exact', async () => {
    const before = await snapshot(ctx.database);
    const figures = await staffFigures();
    const still = await ctx.request('GET', '/api/v1/users/me/', { token: people.anna.token });
    expect(still.status).toBe(200);

    const done = await eraseUser(ctx.database.db, 'anna', now());
    expect(done).toEqual({
      id: people.anna.id,
      tombstone: `erased:${people.anna.id}`,
      shoppingLists: 1,
      carts: 3,
    });

    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, people.anna.id));
    expect(row).toMatchObject({
      username: `erased:${people.anna.id}`,
      email: '',
      firstName: '',
      lastName: '',
      telephone: '',
      reference: null,
      lastLogin: null,
    });
    // Her tokens no longer work, nor refresh.
    const gone = await ctx.request('GET', '/api/v1/users/me/', { token: people.anna.token });
    expect(gone.status).toBe(401);
    const refresh = await ctx.request('POST', '/api/v1/auth/jwt/refresh/', {
      body: { token: people.anna.token },
    });
    expect(refresh.status).toBe(400);

    const after = await snapshot(ctx.database);
    expect(
      await ctx.database.db.select().from(shoppingLists).where(eq(shoppingLists.userId, row.id)),
    ).toEqual([]);
    expect(after.restore_codes).toEqual([]);
    expect(after.memberships.length).toBeLessThan(before.memberships.length);
    // Carts, lines, checkout records (order numbers) and controls stay, owned by the tombstone.
    expect(after.carts.length).toBe(before.carts.length);
    expect(after.items).toEqual(before.items);
    expect(after.checkouts).toEqual(before.checkouts);
    expect(after.controls).toEqual(before.controls);
    const kept = await ctx.database.db
      .select({ mark: carts.orderMark, order: checkouts.orderNumber })
      .from(carts)
      .innerJoin(checkouts, eq(checkouts.cartId, carts.id))
      .where(eq(carts.userId, row.id));
    expect(kept).toHaveLength(2);
    for (const cart of kept) expect(cart).toEqual({ mark: '', order: expect.any(String) });
    expect(after.cart_rollups).toEqual(before.cart_rollups);
    const { stored, fresh } = await rollupsAndFresh(ctx.database);
    expect(stored).toEqual(fresh);
    expect(await staffFigures()).toEqual(figures);
    // Bruno's data is untouched.
    expect((await exportUser(ctx.database.db, 'bruno', 'x')).shopping_lists).toHaveLength(1);

    await expect(exportUser(ctx.database.db, 'anna', 'x')).rejects.toThrow(/unknown user "anna"/);
    await expect(eraseUser(ctx.database.db, 'anna', now())).rejects.toThrow(/unknown user "anna"/);
    await expect(eraseUser(ctx.database.db, row.username, now())).rejects.toThrow(/already erased/);

    // Logging in again through the ERP makes a new, empty local record.
    const again = await ctx.login('anna');
    expect(again.userId).not.toBe(row.id);
    const mine = await ctx.request('GET', '/api/v1/carts/', { token: again.token });
    expect(mine.body.count).toBe(0);
  });

  it('takes the roles away with an audit event for each, so the trail shows none on the tombstone', async () => {
    const db = ctx.database.db;
    await grantRole(db, 'bruno', 'staff', ctx.clock.nowMicros());
    await grantRole(db, 'bruno', 'admin', ctx.clock.nowMicros());
    ctx.clock.advance(1);
    const done = await eraseUser(db, 'bruno', now());
    const carla = await ctx.login('carla');
    const trail = await ctx.request(
      'GET',
      `/api/v1/audit-events/?user=${done.id}&kind=role.revoked`,
      { token: carla.token },
    );
    expect(trail.status, trail.text).toBe(200);
    expect(
      trail.body.results.map((e: { before: unknown; after: unknown; via: string }) => [
        e.via,
        e.before,
        e.after,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['admin-command', { is_staff: true }, { is_staff: false }],
        ['admin-command', { is_admin: true }, { is_admin: false }],
      ]),
    );
    expect(trail.body.count).toBe(2);
    // A tombstone's name takes no role: no live row may hold one.
    await expect(grantRole(db, done.tombstone, 'admin', ctx.clock.nowMicros())).rejects.toThrow(
      /names an erased user/,
    );
  });
});

describe('the erasure journal', () => {
  it('an erasure that cannot be recorded is not made; a record cut by a crash is skipped, any other bad line refused', async () => {
    const db = ctx.database.db;
    const dir = mkdtempSync(join(tmpdir(), 'ordering-journal-'));
    // A journal under a plain file cannot be written, whoever runs the command.
    writeFileSync(join(dir, 'file'), '');
    await expect(
      eraseUser(db, 'carla', { ...now(), journal: join(dir, 'file', 'erasures.jsonl') }),
    ).rejects.toThrow(/cannot record the erasure in .*; nothing was erased/);
    expect(await exportUser(db, 'carla', 'x')).toMatchObject({ user: { username: 'carla' } });

    const journal = join(dir, 'erasures.jsonl');
    const done = await eraseUser(db, 'carla', { ...now(), journal });
    const [line] = readFileSync(journal, 'utf8').split('\n');
    expect(JSON.parse(line)).toEqual({
      id: done.id,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      erased_at: expect.any(String),
    });
    writeFileSync(journal, `${line}\n{"id":4,"crea`, { flag: 'w' });
    expect(readErasures(journal)).toEqual([JSON.parse(line)]);
    writeFileSync(journal, `{"id":"x"}\n${line}\n`);
    expect(() => readErasures(journal)).toThrow(/erasures.jsonl line 1 is not an erasure record/);
    expect(readErasures(join(dir, 'none.jsonl'))).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('a tombstone cannot be logged into, whatever the ERP answers', () => {
  /** The ERP answers `/me` with a profile of this username (an ERP bug, or a hostile one). */
  const profileNamed = (username: string) =>
    ctx.sim.inject('me', {
      type: 'answer',
      body: { username, email: 'x@erp.example.com', first_name: 'X', organizations: [] },
    });

  it('a profile named as an erased user: 502 upstream_error, no token, the tombstone untouched', async () => {
    const db = ctx.database.db;
    const [erased] = await db.select().from(users).where(eq(users.id, people.anna.id));
    expect(erased.erasedAt).not.toBeNull();
    const cartsBefore = await db.select().from(carts).where(eq(carts.userId, erased.id));
    expect(cartsBefore.length).toBeGreaterThan(0);

    profileNamed(erased.username);
    const login = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'carla', password: PASSWORDS.carla },
    });
    expect(login.status, login.text).toBe(502);
    expect(login.body).toMatchObject({ code: 'upstream_error' });
    expect(login.body.token).toBeUndefined();
    const [after] = await db.select().from(users).where(eq(users.id, erased.id));
    expect(after).toEqual(erased);
    expect(await db.select().from(users).where(eq(users.email, 'x@erp.example.com'))).toEqual([]);
  });

  it('a profile with any tombstone name (no such user yet): 502, no record made, so no erasure can collide with it', async () => {
    const db = ctx.database.db;
    const [{ next }] = await db.select({ next: sql<number>`max(${users.id}) + 1` }).from(users);
    profileNamed(`erased:${next}`);
    const login = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'carla', password: PASSWORDS.carla },
    });
    expect(login.status, login.text).toBe(502);
    expect(login.body).toMatchObject({ code: 'upstream_error' });
    expect(
      await db
        .select()
        .from(users)
        .where(eq(users.username, `erased:${next}`)),
    ).toEqual([]);
    // The ERP answering properly again: the login works.
    expect((await ctx.login('carla')).token).toBeTruthy();
  });
});
