import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAudit } from '../../src/admin/audit-export.js';
import { AdminError, grantRole, revokeRole, upsertStore } from '../../src/admin/commands.js';
import { users } from '../../src/db/schema.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { cartWith, checkout, createStore, loginStaff } from '../helpers/fixtures.js';

/**
 * Who did what: every staff action leaves an event in the append-only trail, written in the
 * transaction of the change, and admins read it at `GET audit-events/`.
 */
const GLN = '4099991000017';
/** Every checkout here draws a random control (N = 1). */
const GLN_RANDOM = '4099991000024';
const GLN_ADMIN = '4099991000031';
const AUDIT = '/api/v1/audit-events/';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let admin: Session;
const store: Record<string, number> = {};

beforeAll(async () => {
  ctx = await startTestApp();
  store.main = await createStore(ctx, GLN, { activePeriodSeconds: 3600 });
  store.random = await createStore(ctx, GLN_RANDOM, {
    activePeriodSeconds: 3600,
    cartsForRandomControl: 1,
  });
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await loginStaff(ctx);
  admin = await ctx.loginAs('carla', 'admin');
});
afterAll(() => ctx?.close());

interface Event {
  id: number;
  created: string;
  kind: string;
  via: string;
  actor: { id: number; username: string } | null;
  operator: string | null;
  store: string | null;
  user: number | null;
  customer?: { id: number; username: string; first_name: string; last_name: string } | null;
  object: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

async function trail(query = '', session: Session = admin): Promise<Event[]> {
  const answer = await ctx.request('GET', `${AUDIT}?page_size=100${query}`, {
    token: session.token,
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.results;
}

const ofObject = async (id: number) => (await trail()).filter((e) => e.object === id);

async function pendingControl(customer: Session): Promise<{ id: number; carts: number[] }> {
  await cartWith(ctx, customer, { store: GLN });
  const answer = await ctx.request('POST', '/api/v1/controls/', {
    token: admin.token,
    body: { user: customer.userId, store: store.main, status: 'pending' },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe('the audit trail', () => {
  it('records a control created, verified and rejected, with who, when and the values', async () => {
    const control = await pendingControl(anna);
    ctx.clock.advance(60);
    const verified = await ctx.request('PATCH', `/api/v1/controls/${control.id}/`, {
      token: admin.token,
      body: { status: 'verified' },
    });
    expect(verified.status).toBe(200);
    const events = await ofObject(control.id);
    expect(events.map((e) => e.kind)).toEqual(['control.verified', 'control.created']);
    const [verify, create] = events;
    expect(create).toMatchObject({
      via: 'api',
      actor: { id: admin.userId, username: 'carla' },
      operator: null,
      store: GLN,
      user: anna.userId,
      before: null,
      after: { status: 'pending', carts: control.carts, is_random: false },
    });
    expect(verify).toMatchObject({
      actor: { id: admin.userId },
      before: { status: 'pending', verified_at: null },
      after: { status: 'verified', verified_at: verified.body.verified_at },
    });
    expect(verify.created).toBe(verified.body.verified_at);

    const rejected = await pendingControl(bruno);
    const answer = await ctx.request('DELETE', `/api/v1/controls/${rejected.id}/`, {
      token: admin.token,
    });
    expect(answer.status).toBe(204);
    const gone = await ctx.request('GET', `/api/v1/controls/${rejected.id}/`, {
      token: admin.token,
    });
    expect(gone.status).toBe(404);
    const [reject] = await ofObject(rejected.id);
    expect(reject).toMatchObject({
      kind: 'control.rejected',
      actor: { id: admin.userId },
      user: bruno.userId,
      store: GLN,
      before: {
        status: 'pending',
        is_random: false,
        controller: admin.userId,
        carts: rejected.carts,
      },
      after: null,
    });
  });

  it('names the actor and the customer, for the console (issue 32)', async () => {
    const control = await pendingControl(bruno);
    const [create] = await ofObject(control.id);
    const names = async (username: string) =>
      (
        await ctx.database.db
          .select({ first_name: users.firstName, last_name: users.lastName })
          .from(users)
          .where(eq(users.username, username))
      )[0];
    const carla = await names('carla');
    const customer = await names('bruno');
    expect(create.actor).toEqual({ id: admin.userId, username: 'carla', ...carla });
    expect(create.customer).toEqual({ id: bruno.userId, username: 'bruno', ...customer });
    expect(`${customer.first_name}${customer.last_name}`).not.toBe('');
  });

  it('records nothing for a refused or repeated change', async () => {
    const control = await pendingControl(anna);
    const verify = () =>
      ctx.request('PATCH', `/api/v1/controls/${control.id}/`, {
        token: admin.token,
        body: { status: 'verified' },
      });
    expect((await verify()).status).toBe(200);
    expect((await verify()).status).toBe(200);
    const refused = await ctx.request('DELETE', `/api/v1/controls/${control.id}/`, {
      token: admin.token,
    });
    expect(refused.status).toBe(400);
    expect((await ofObject(control.id)).map((e) => e.kind)).toEqual([
      'control.verified',
      'control.created',
    ]);
  });

  it('records one verification when two admins verify at once', async () => {
    const second = await ctx.loginAs('bruno', 'admin');
    const control = await pendingControl(anna);
    const answers = await Promise.all(
      [admin, second, admin, second].map((session) =>
        ctx.request('PATCH', `/api/v1/controls/${control.id}/`, {
          token: session.token,
          body: { status: 'verified' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const verifications = (await ofObject(control.id)).filter((e) => e.kind === 'control.verified');
    expect(verifications).toHaveLength(1);
    await ctx.database.db.execute(
      sql`update users set is_admin = false where id = ${second.userId}`,
    );
  });

  it('records a random draw without an actor', async () => {
    const cart = await cartWith(ctx, bruno, { store: GLN_RANDOM });
    const done = await checkout(ctx, bruno, cart);
    expect(done.status).toBe(200);
    const drawn = (await trail(`&store=${GLN_RANDOM}`)).find((e) => e.kind === 'control.created');
    expect(drawn).toMatchObject({
      via: 'random-draw',
      actor: null,
      user: bruno.userId,
      after: { status: 'pending', is_random: true },
    });
    expect(drawn?.after?.carts).toContain(cart);
  });

  it('records store settings and hours changed by staff, only the fields that changed', async () => {
    const patch = (body: unknown) =>
      ctx.request('PATCH', `/api/v1/stores/${GLN}/`, { token: staff.token, body });
    expect((await patch({ active_period: '02:30:00', name: 'Harburg' })).status).toBe(200);
    expect((await patch({ active_period: '02:30:00' })).status).toBe(200);
    const hours = await ctx.request('POST', `/api/v1/stores/${GLN}/store-hours/`, {
      token: staff.token,
      body: [
        { weekday: 'monday', opening_time: '06:30', closing_time: '17:00' },
        { weekday: 'sunday', opening_time: null, closing_time: null },
      ],
    });
    expect(hours.status).toBe(200);
    const events = await trail(`&store=${GLN}&actor=${staff.userId}`);
    expect(events.map((e) => e.kind)).toEqual(['store.hours_updated', 'store.updated']);
    expect(events[1]).toMatchObject({
      before: { name: expect.any(String), active_period: '01:00:00' },
      after: { name: 'Harburg', active_period: '02:30:00' },
    });
    expect(Object.keys(events[1].after ?? {}).sort()).toEqual(['active_period', 'name']);
    expect(events[0]).toMatchObject({
      before: { monday: null, sunday: null },
      after: {
        monday: { opening_time: '06:30:00', closing_time: '17:00:00' },
        sunday: { opening_time: null, closing_time: null },
      },
    });
  });

  it('filters by store, person, kind and date; admins only', async () => {
    const all = await trail();
    expect(all.length).toBeGreaterThan(4);
    const byKind = await trail('&kind=control.rejected');
    expect(byKind.length).toBeGreaterThan(0);
    expect(byKind.every((e) => e.kind === 'control.rejected')).toBe(true);
    const byActor = await trail(`&actor=${staff.userId}`);
    expect(byActor.every((e) => e.actor?.id === staff.userId)).toBe(true);
    const byUser = await trail(`&user=${bruno.userId}`);
    expect(byUser.length).toBeGreaterThan(0);
    expect(byUser.every((e) => e.user === bruno.userId)).toBe(true);
    const newest = all[0].created;
    expect(await trail(`&created_after=${encodeURIComponent(newest)}`)).toEqual([]);
    expect((await trail(`&created_before=${encodeURIComponent(newest)}`)).length).toBeLessThan(
      all.length,
    );
    for (const session of [anna, staff]) {
      const refused = await ctx.request('GET', AUDIT, { token: session.token });
      expect(refused.status).toBe(403);
    }
    expect((await ctx.request('GET', AUDIT)).status).toBe(401);
    const bad = await ctx.request('GET', `${AUDIT}?created_after=soon&kind=x`, {
      token: admin.token,
    });
    expect(bad.status).toBe(400);
  });

  it('is append-only: updates, deletes and truncation are refused, declared retention or not', async () => {
    const { db } = ctx.database;
    await expect(db.execute(sql`update audit_events set kind = 'x'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_events`)).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_events`)).rejects.toThrow();
    const before = (await trail()).length;
    // The old door (a transaction declaring itself retention) is shut, and so is the new
    // function's setting set by hand: only the trail's owner role deletes (test/audit/guard.test.ts).
    for (const setting of ['ordering.retention', 'ordering.audit_retention']) {
      const refused = await db
        .transaction(async (tx) => {
          await tx.execute(sql`select set_config(${setting}, 'on', true)`);
          await tx.execute(
            sql`delete from audit_events where id = (select min(id) from audit_events)`,
          );
        })
        .catch((error: Error) => error.cause);
      expect(String(refused)).toMatch(/audit_events is append-only \(DELETE\)/);
    }
    expect((await trail()).length).toBe(before);
  });

  it('records roles and stores changed by the admin command, and exports the trail', async () => {
    const { db } = ctx.database;
    const now = ctx.clock.nowMicros();
    await grantRole(db, 'erin', 'staff', now);
    await grantRole(db, 'erin', 'staff', now); // no change, no event
    await revokeRole(db, 'erin', 'staff', now);
    await upsertStore(db, { gln: GLN_ADMIN, name: 'Linden', activePeriod: '01:00:00' }, now);
    await upsertStore(db, { gln: GLN_ADMIN, name: 'Linden-Mitte' }, now);
    await upsertStore(db, { gln: GLN_ADMIN, name: 'Linden-Mitte' }, now); // no change
    const events = (await trail()).filter((e) => e.via === 'admin-command');
    expect(events.map((e) => e.kind)).toEqual([
      'store.updated',
      'store.created',
      'role.revoked',
      'role.granted',
    ]);
    expect(events[3]).toMatchObject({
      actor: null,
      before: { is_staff: false },
      after: { is_staff: true },
    });
    expect(typeof events[3].operator).toBe('string');
    expect(events[0]).toMatchObject({
      store: GLN_ADMIN,
      before: { name: 'Linden' },
      after: { name: 'Linden-Mitte' },
    });

    const exported = await exportAudit(db, { store: GLN_ADMIN });
    expect(exported.map((e) => e.kind)).toEqual(['store.created', 'store.updated']);
    expect(exported).toEqual([...events.slice(0, 2)].reverse());
    await expect(exportAudit(db, { since: 'yesterday' })).rejects.toThrow(AdminError);
  });
});
