import { eq, sql } from 'drizzle-orm';
import { ensureUser } from '../auth/users.js';
import { formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { options, storeHours, stores, users } from '../db/schema.js';
import { parseDuration } from '../stores/duration.js';

/** A mistake of the person running the command: the message is one line. */
export class AdminError extends Error {}

export type Role = 'staff' | 'admin';
export const ROLES: readonly Role[] = ['staff', 'admin'];

/** Quotes user input so a message stays on one line. */
const q = (value: unknown) => JSON.stringify(value);

const MAX_INT = 2_147_483_647;

function checkRole(role: string): asserts role is Role {
  if (!ROLES.includes(role as Role)) {
    throw new AdminError(`role must be staff or admin, got ${q(role)}`);
  }
}

function checkUsername(username: string): void {
  if (username.trim() === '') throw new AdminError('username must not be empty');
}

/** Grants a role, creating the local user record for someone who never logged in. */
export async function grantRole(
  db: Db,
  username: string,
  role: Role,
  nowMicros: number,
): Promise<void> {
  checkUsername(username);
  checkRole(role);
  const id = await ensureUser(db, username, nowMicros);
  await db
    .update(users)
    .set(role === 'admin' ? { isAdmin: true } : { isStaff: true })
    .where(eq(users.id, id));
}

export async function revokeRole(db: Db, username: string, role: Role): Promise<void> {
  checkRole(role);
  const rows = await db
    .update(users)
    .set(role === 'admin' ? { isAdmin: false } : { isStaff: false })
    .where(eq(users.username, username))
    .returning({ id: users.id });
  if (rows.length === 0) throw new AdminError(`unknown user ${q(username)}`);
}

export interface StoreInput {
  gln: string;
  name: string;
  /** `HH:MM:SS` or `HH:MM`. */
  activePeriod?: string;
  cartsForRandomControl?: number;
}

interface StoreValues {
  gln: string;
  name: string;
  activePeriodSeconds?: number;
  cartsForRandomControl?: number;
}

function storeValues(input: StoreInput): StoreValues {
  const { gln, name, activePeriod, cartsForRandomControl } = input;
  if (typeof gln !== 'string' || !/^\d{1,64}$/.test(gln)) {
    throw new AdminError(`gln must be 1 to 64 digits, got ${q(gln)}`);
  }
  if (typeof name !== 'string' || name.trim() === '') {
    throw new AdminError('name must be a non-empty string');
  }
  const values: StoreValues = { gln, name };
  if (activePeriod !== undefined) {
    const seconds = typeof activePeriod === 'string' ? parseDuration(activePeriod) : null;
    if (seconds === null) {
      throw new AdminError(`active period must be HH:MM:SS, got ${q(activePeriod)}`);
    }
    values.activePeriodSeconds = seconds;
  }
  if (cartsForRandomControl !== undefined) {
    const n = cartsForRandomControl;
    if (!Number.isInteger(n) || n < 0 || n > MAX_INT) {
      throw new AdminError(`carts_for_random_control must be an integer >= 0, got ${q(n)}`);
    }
    values.cartsForRandomControl = n;
  }
  return values;
}

/** Inserts or, by GLN, updates only the given fields. */
async function writeStore(
  db: Db,
  values: StoreValues,
  now: string,
): Promise<'created' | 'updated'> {
  const { gln, ...changes } = values;
  const [row] = await db
    .insert(stores)
    .values({ ...values, created: now })
    .onConflictDoUpdate({ target: stores.gln, set: changes })
    // xmax is 0 only for a freshly inserted row.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  return row.inserted ? 'created' : 'updated';
}

export async function upsertStore(
  db: Db,
  input: StoreInput,
  nowMicros: number,
): Promise<'created' | 'updated'> {
  return writeStore(db, storeValues(input), formatMicros(nowMicros));
}

const IMPORT_FIELDS = ['gln', 'name', 'active_period', 'carts_for_random_control'];

/** Validates every entry first, then writes all of them in one transaction. */
export async function importStores(db: Db, json: unknown, nowMicros: number): Promise<number> {
  if (!Array.isArray(json)) throw new AdminError('the file must hold a JSON array of stores');
  const all = json.map((entry: unknown, index) => {
    try {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        throw new AdminError('must be an object');
      }
      const record = entry as Record<string, unknown>;
      const unknown = Object.keys(record).find((key) => !IMPORT_FIELDS.includes(key));
      if (unknown !== undefined) throw new AdminError(`unknown field ${q(unknown)}`);
      return storeValues({
        gln: record.gln as string,
        name: record.name as string,
        activePeriod: (record.active_period ?? undefined) as string | undefined,
        cartsForRandomControl: (record.carts_for_random_control ?? undefined) as number | undefined,
      });
    } catch (err) {
      if (err instanceof AdminError) throw new AdminError(`entry ${index}: ${err.message}`);
      throw err;
    }
  });
  const now = formatMicros(nowMicros);
  await db.transaction(async (tx) => {
    for (const values of all) await writeStore(tx, values, now);
  });
  return all.length;
}

export interface OptionFlags {
  isPublic?: boolean;
  publicName?: string;
}

/** Values the service reads; anything else is stored as given. */
const OPTION_VALUES: Record<string, string[]> = {
  criteria_for_random_controls: ['users', 'carts'],
};

export async function setOption(
  db: Db,
  name: string,
  value: string,
  flags: OptionFlags = {},
): Promise<'created' | 'updated'> {
  if (name.trim() === '') throw new AdminError('option name must not be empty');
  const allowed = OPTION_VALUES[name];
  if (allowed && !allowed.includes(value)) {
    throw new AdminError(`${name} must be one of ${allowed.join(', ')}, got ${q(value)}`);
  }
  const changes: Partial<typeof options.$inferInsert> = { value };
  if (flags.isPublic !== undefined) changes.isPublic = flags.isPublic;
  if (flags.publicName !== undefined) changes.publicName = flags.publicName;
  const [row] = await db
    .insert(options)
    .values({ name, ...changes })
    .onConflictDoUpdate({ target: options.name, set: changes })
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  return row.inserted ? 'created' : 'updated';
}

/** The demo stores, at the GLNs of the simulator's demo data. */
const demoStores = (glns: readonly string[]) => [
  { gln: glns[0], name: 'Trade store Hamburg-Harburg', cartsForRandomControl: 5 },
  { gln: glns[1], name: 'Trade store Bremen-Hemelingen', cartsForRandomControl: 0 },
  // N = 1: every checkout here draws a random control, so the demo shows one.
  { gln: glns[2], name: 'Trade store Hannover-Linden', cartsForRandomControl: 1 },
];

/** Weekday 0 = Monday; null times mean closed. */
const DEMO_HOURS: [string | null, string | null][] = [
  ['07:00:00', '18:00:00'],
  ['07:00:00', '18:00:00'],
  ['07:00:00', '18:00:00'],
  ['07:00:00', '18:00:00'],
  ['07:00:00', '18:00:00'],
  ['08:00:00', '13:00:00'],
  [null, null],
];

const DEMO_OPTIONS = [
  {
    name: 'criteria_for_random_controls',
    value: 'carts',
    isPublic: true,
    publicName: 'Criteria for random controls',
  },
  {
    name: 'support_phone',
    value: '+49 40 7654 3210',
    isPublic: true,
    publicName: 'Support hotline',
  },
  {
    name: 'terms_url',
    value: 'https://trade-supply.example.com/terms',
    isPublic: true,
    publicName: 'Terms and conditions',
  },
  {
    name: 'control_report_email',
    value: 'controls@trade-supply.example.com',
    isPublic: false,
    publicName: '',
  },
];

/**
 * Demo stores, hours, options and the demo admin. Idempotent, and it only adds what is
 * missing: rows staff or admins changed since are left as they are.
 */
export async function seedDemo(db: Db, nowMicros: number): Promise<void> {
  // The demo data is the simulator's (erp-simulator/), loaded only when it is seeded.
  const { DEMO_STORE_GLNS, DEMO_USERS } = await import('../../erp-simulator/data.js');
  const now = formatMicros(nowMicros);
  await db.transaction(async (tx) => {
    for (const store of demoStores(DEMO_STORE_GLNS)) {
      await tx
        .insert(stores)
        .values({ ...store, activePeriodSeconds: 7200, created: now })
        .onConflictDoNothing({ target: stores.gln });
      const [{ id }] = await tx
        .select({ id: stores.id })
        .from(stores)
        .where(eq(stores.gln, store.gln));
      const [existing] = await tx
        .select({ weekday: storeHours.weekday })
        .from(storeHours)
        .where(eq(storeHours.storeId, id))
        .limit(1);
      if (existing) continue;
      await tx.insert(storeHours).values(
        DEMO_HOURS.map(([openingTime, closingTime], weekday) => ({
          storeId: id,
          weekday,
          openingTime,
          closingTime,
        })),
      );
    }
    await tx.insert(options).values(DEMO_OPTIONS).onConflictDoNothing({ target: options.name });
    for (const user of DEMO_USERS.filter((u) => u.role === 'admin')) {
      await grantRole(tx, user.username, 'admin', nowMicros);
    }
  });
}
