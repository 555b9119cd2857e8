import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import {
  AdminError,
  grantRole,
  importStores,
  revokeRole,
  seedDemo,
  setOption,
  upsertStore,
} from '../../src/admin/commands.js';
import type { Database, Db } from '../../src/db/client.js';
import { options, storeHours, stores, users } from '../../src/db/schema.js';
import { formatDuration, parseDuration } from '../../src/stores/duration.js';
import { createTestDatabase } from '../helpers/db.js';

const NOW = Date.parse('2026-03-02T09:00:00Z') * 1000;

let database: Database;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database?.close());

const store = async (gln: string) => (await db.select().from(stores).where(eq(stores.gln, gln)))[0];
const user = async (username: string) =>
  (await db.select().from(users).where(eq(users.username, username)))[0];
const option = async (name: string) =>
  (await db.select().from(options).where(eq(options.name, name)))[0];

describe('durations', () => {
  it('parses HH:MM:SS and HH:MM, hours past 23', () => {
    expect(parseDuration('02:00:00')).toBe(7200);
    expect(parseDuration('00:30')).toBe(1800);
    expect(parseDuration('100:00:01')).toBe(360_001);
    expect(parseDuration('0:05:00')).toBe(300);
  });

  it('rejects anything else', () => {
    for (const bad of [
      '',
      '02',
      '02:60:00',
      '02:00:60',
      '2:5',
      'aa:bb',
      '-1:00:00',
      ' 02:00',
      '1:00:00:00',
    ]) {
      expect(parseDuration(bad), bad).toBeNull();
    }
    expect(parseDuration('999999999:00:00')).toBeNull();
  });

  it('formats with at least two hour digits', () => {
    expect(formatDuration(7200)).toBe('02:00:00');
    expect(formatDuration(360_000)).toBe('100:00:00');
    expect(formatDuration(3661)).toBe('01:01:01');
    expect(formatDuration(0)).toBe('00:00:00');
  });
});

describe('roles', () => {
  it('grants a role to a user who never logged in', async () => {
    await grantRole(db, 'dora', 'staff', NOW);
    expect(await user('dora')).toMatchObject({ isStaff: true, isAdmin: false });
    await grantRole(db, 'dora', 'admin', NOW);
    expect(await user('dora')).toMatchObject({ isStaff: true, isAdmin: true });
  });

  it('revokes one role and keeps the other', async () => {
    await revokeRole(db, 'dora', 'staff', NOW);
    expect(await user('dora')).toMatchObject({ isStaff: false, isAdmin: true });
  });

  it('refuses unknown users and roles', async () => {
    await expect(revokeRole(db, 'nobody', 'admin', NOW)).rejects.toThrow(AdminError);
    await expect(grantRole(db, 'dora', 'boss' as 'admin', NOW)).rejects.toThrow(/role/);
    await expect(grantRole(db, ' ', 'staff', NOW)).rejects.toThrow(AdminError);
    expect(await user('nobody')).toBeUndefined();
  });
});

describe('stores', () => {
  it('creates with defaults, then updates only the given fields', async () => {
    expect(await upsertStore(db, { gln: '1111', name: 'First' }, NOW)).toBe('created');
    expect(await store('1111')).toMatchObject({
      name: 'First',
      activePeriodSeconds: 7200,
      cartsForRandomControl: 0,
    });
    const result = await upsertStore(
      db,
      { gln: '1111', name: 'First', activePeriod: '03:30:00', cartsForRandomControl: 4 },
      NOW,
    );
    expect(result).toBe('updated');
    expect(await upsertStore(db, { gln: '1111', name: 'Renamed' }, NOW)).toBe('updated');
    expect(await store('1111')).toMatchObject({
      name: 'Renamed',
      activePeriodSeconds: 12_600,
      cartsForRandomControl: 4,
    });
  });

  it('validates its input', async () => {
    const bad = [
      { gln: '', name: 'x' },
      { gln: '12a', name: 'x' },
      { gln: '1'.repeat(65), name: 'x' },
      { gln: '2222', name: ' ' },
      { gln: '2222', name: 'x', activePeriod: '25:61' },
      { gln: '2222', name: 'x', cartsForRandomControl: -1 },
      { gln: '2222', name: 'x', cartsForRandomControl: 1.5 },
    ];
    for (const input of bad) {
      await expect(upsertStore(db, input, NOW), JSON.stringify(input)).rejects.toThrow(AdminError);
    }
    expect(await store('2222')).toBeUndefined();
  });

  it('imports an array of stores', async () => {
    const count = await importStores(
      db,
      [
        { gln: '3333', name: 'Third', active_period: '100:00:00', carts_for_random_control: 2 },
        { gln: '1111', name: 'First again' },
      ],
      NOW,
    );
    expect(count).toBe(2);
    expect(await store('3333')).toMatchObject({
      name: 'Third',
      activePeriodSeconds: 360_000,
      cartsForRandomControl: 2,
    });
    expect(await store('1111')).toMatchObject({ name: 'First again', activePeriodSeconds: 12_600 });
  });

  it('imports nothing when one entry is bad, naming its index', async () => {
    const json = [
      { gln: '4444', name: 'Fourth' },
      { gln: '5555', name: 'Fifth', active_period: 'soon' },
    ];
    await expect(importStores(db, json, NOW)).rejects.toThrow(/^entry 1: active period/);
    await expect(importStores(db, [{ gln: '4444', name: 'x', extra: 1 }], NOW)).rejects.toThrow(
      /^entry 0: unknown field "extra"/,
    );
    await expect(importStores(db, [42], NOW)).rejects.toThrow(/^entry 0/);
    await expect(importStores(db, { gln: '4444' }, NOW)).rejects.toThrow(/array/);
    expect(await store('4444')).toBeUndefined();
  });

  it('rolls back the whole import when the database refuses a row', async () => {
    // A trigger stands in for any failure the validation cannot foresee.
    await db.execute(sql`
      create function refuse_7777() returns trigger language plpgsql as $$
      begin
        if new.gln = '7777' then raise exception 'refused by test trigger'; end if;
        return new;
      end $$`);
    await db.execute(
      sql`create trigger refuse_7777 before insert on stores for each row execute function refuse_7777()`,
    );
    try {
      const json = [
        { gln: '6666', name: 'Sixth' },
        { gln: '7777', name: 'Seventh' },
      ];
      await expect(importStores(db, json, NOW)).rejects.toThrow();
      expect(await store('6666')).toBeUndefined();
    } finally {
      await db.execute(sql`drop trigger refuse_7777 on stores`);
      await db.execute(sql`drop function refuse_7777`);
    }
  });
});

describe('options', () => {
  it('creates, then updates the flags only when given', async () => {
    expect(
      await setOption(db, 'test_url', 'https://a.example', { isPublic: true, publicName: 'Terms' }),
    ).toBe('created');
    expect(await setOption(db, 'test_url', 'https://b.example')).toBe('updated');
    expect(await option('test_url')).toMatchObject({
      value: 'https://b.example',
      isPublic: true,
      publicName: 'Terms',
    });
    await setOption(db, 'test_url', 'https://b.example', { isPublic: false });
    expect(await option('test_url')).toMatchObject({ isPublic: false, publicName: 'Terms' });
  });

  it('checks the values of options the service reads', async () => {
    await expect(setOption(db, 'criteria_for_random_controls', 'dice')).rejects.toThrow(AdminError);
    await expect(setOption(db, '', 'x')).rejects.toThrow(AdminError);
    expect(await option('criteria_for_random_controls')).toBeUndefined();
  });
});

describe('seed demo', () => {
  it('adds stores, hours, options and the demo admin', async () => {
    await seedDemo(db, NOW);
    const demo = await db.select().from(stores).where(eq(stores.gln, DEMO_STORE_GLNS[2]));
    expect(demo[0]).toMatchObject({ activePeriodSeconds: 7200, cartsForRandomControl: 1 });
    for (const gln of DEMO_STORE_GLNS) {
      const s = await store(gln);
      expect(s.name).not.toBe('');
      const hours = await db
        .select()
        .from(storeHours)
        .where(eq(storeHours.storeId, s.id))
        .orderBy(asc(storeHours.weekday));
      expect(hours.map((h) => h.weekday)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(hours[0]).toMatchObject({ openingTime: '07:00:00', closingTime: '18:00:00' });
      expect(hours[5]).toMatchObject({ openingTime: '08:00:00', closingTime: '13:00:00' });
      expect(hours[6]).toMatchObject({ openingTime: null, closingTime: null });
    }
    expect(await option('criteria_for_random_controls')).toMatchObject({
      value: 'carts',
      isPublic: true,
      publicName: 'Criteria for random controls',
    });
    const all = await db.select().from(options);
    expect(all.filter((o) => o.isPublic).length).toBeGreaterThanOrEqual(3);
    expect(all.some((o) => !o.isPublic)).toBe(true);
    expect(await user('carla')).toMatchObject({ isAdmin: true, isStaff: false });
    expect(await user('anna')).toBeUndefined();
    expect(await user('bruno')).toBeUndefined();
  });

  it('is idempotent and keeps changes made since', async () => {
    const first = await store(DEMO_STORE_GLNS[0]);
    await db
      .update(storeHours)
      .set({ openingTime: '06:30:00' })
      .where(eq(storeHours.storeId, first.id));
    await upsertStore(
      db,
      { gln: DEMO_STORE_GLNS[0], name: first.name, activePeriod: '04:00:00' },
      NOW,
    );
    await setOption(db, 'criteria_for_random_controls', 'users');
    const before = {
      stores: await db.select().from(stores).orderBy(asc(stores.id)),
      options: await db.select().from(options).orderBy(asc(options.id)),
      hours: await db.select().from(storeHours),
      users: await db.select().from(users).orderBy(asc(users.id)),
    };
    await seedDemo(db, NOW + 1_000_000);
    expect(await db.select().from(stores).orderBy(asc(stores.id))).toEqual(before.stores);
    expect(await db.select().from(options).orderBy(asc(options.id))).toEqual(before.options);
    expect(await db.select().from(storeHours)).toHaveLength(before.hours.length);
    expect(await db.select().from(users).orderBy(asc(users.id))).toEqual(before.users);
    const hours = await db.select().from(storeHours).where(eq(storeHours.storeId, first.id));
    expect(hours.every((h) => h.openingTime === '06:30:00')).toBe(true);
    expect((await store(DEMO_STORE_GLNS[0])).activePeriodSeconds).toBe(14_400);
  });
});
