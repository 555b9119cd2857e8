import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMicros } from '../../src/clock.js';
import { createControl, verifyControl } from '../../src/controls/logic.js';
import type { Control } from '../../src/controls/schemas.js';
import type { Database } from '../../src/db/client.js';
import { carts, controls, organizations, stores, users } from '../../src/db/schema.js';
import { Invalid, NotFound } from '../../src/errors.js';
import type { AppEvents } from '../../src/events/app-events.js';
import { EventBus, type Log } from '../../src/events/bus.js';
import { createTestDatabase } from '../helpers/db.js';

/*
 * The controls' domain logic without HTTP: a database, a bus, and the functions the routes
 * call. Rules answer with domain errors (src/errors.ts); events follow the commit.
 */

const NOW = Date.parse('2026-03-02T09:00:00Z') * 1000;
const noLog = { error: () => {} } as unknown as Log;

let database: Database;
let bus: EventBus<AppEvents>;
/** What the bus delivered, and whether the control was committed when it was. */
const heard: { type: string; control: Control; committed: boolean }[] = [];
let customer: number;
let admin: number;
let store: number;
let emptyStore: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  const created = formatMicros(NOW - 60_000_000);
  [{ id: customer }, { id: admin }] = await db
    .insert(users)
    .values([
      { username: 'logic-customer', created },
      { username: 'logic-admin', isAdmin: true, created },
    ])
    .returning({ id: users.id });
  [{ id: store }, { id: emptyStore }] = await db
    .insert(stores)
    .values([
      { gln: '4099998000011', name: 'Logic store', created },
      { gln: '4099998000028', name: 'No carts here', created },
    ])
    .returning({ id: stores.id });
  const [organization] = await db
    .insert(organizations)
    .values({ organizationId: 'LOGIC-ORG', created })
    .returning({ id: organizations.id });
  await db.insert(carts).values({
    userId: customer,
    organizationId: organization.id,
    storeId: store,
    created,
    lastActivity: created,
  });

  bus = new EventBus<AppEvents>(noLog);
  for (const type of ['control.created', 'control.verified'] as const) {
    bus.subscribe(type, `recorder of ${type}`, async ({ control }) => {
      // Another statement, outside the control's transaction: it sees only committed rows.
      const [row] = await db.select().from(controls).where(eq(controls.id, control.id));
      heard.push({ type, control, committed: row?.status === control.status });
    });
  }
});
afterAll(() => database?.close());

describe('controls logic', () => {
  it('refuses an unknown user and store together, each on its field; publishes nothing', async () => {
    const error = await createControl(
      database.db,
      bus,
      { id: admin },
      { user: 999_999, store: 999_998, status: 'pending' },
      NOW,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).fields).toEqual({
      user: ['Invalid pk "999999" - object does not exist.'],
      store: ['Invalid pk "999998" - object does not exist.'],
    });
    expect(heard).toEqual([]);
  });

  it('a user with no active cart in the store: a non-field error', async () => {
    const error = await createControl(
      database.db,
      bus,
      { id: admin },
      { user: customer, store: emptyStore, status: 'pending' },
      NOW,
    ).catch((e: unknown) => e);
    expect((error as Invalid).fields).toEqual({
      non_field_errors: ['The user has no active cart in this store.'],
    });
    expect(heard).toEqual([]);
  });

  it('creates the control and publishes control.created once it has committed', async () => {
    const control = await createControl(
      database.db,
      bus,
      { id: admin },
      { user: customer, store, status: 'pending' },
      NOW,
    );
    expect(control).toMatchObject({
      user: customer,
      store,
      status: 'pending',
      verified_at: null,
      is_random: false,
      controller: admin,
    });
    expect(control.carts).toHaveLength(1);
    expect(heard).toEqual([{ type: 'control.created', control, committed: true }]);
  });

  it('verifies once: control.verified after the commit, nothing on a repeat', async () => {
    const control = heard[0].control;
    heard.length = 0;
    const answer = await verifyControl(
      database.db,
      bus,
      { id: admin },
      control.id,
      'verified',
      NOW + 1,
    );
    expect(answer).toEqual({
      id: control.id,
      created: control.created,
      verified_at: formatMicros(NOW + 1),
      is_random: false,
      status: 'verified',
      user: customer,
      cart: control.carts[0],
    });
    expect(heard).toEqual([
      {
        type: 'control.verified',
        control: { ...control, status: 'verified', verified_at: formatMicros(NOW + 1) },
        committed: true,
      },
    ]);

    const repeat = await verifyControl(
      database.db,
      bus,
      { id: admin },
      control.id,
      'verified',
      NOW + 2,
    );
    expect(repeat).toEqual(answer);
    expect(heard).toHaveLength(1);
  });

  it('a verification cannot be undone; an unknown control is NotFound', async () => {
    const control = heard[0].control;
    const undo = await verifyControl(
      database.db,
      bus,
      { id: admin },
      control.id,
      'pending',
      NOW,
    ).catch((e: unknown) => e);
    expect((undo as Invalid).fields).toEqual({
      status: ['A control can only be moved to "verified".'],
    });
    const missing = await verifyControl(
      database.db,
      bus,
      { id: admin },
      999_999,
      'verified',
      NOW,
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFound);
    expect((missing as NotFound).what).toBe('control');
  });
});
