import { eq, sql } from 'drizzle-orm';
import { changedFields, recordAudit } from '../audit/logic.js';
import { ensureUser } from '../auth/users.js';
import { formatMicros, parseTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import { options, storeHours, stores, users } from '../db/schema.js';
import { formatDuration, parseDuration } from '../stores/duration.js';

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
  await db.transaction(async (tx) => {
    const id = await ensureUser(tx, username, nowMicros);
    if (id === undefined) throw new AdminError(`${q(username)} names an erased user`);
    await setRole(tx, id, role, true, nowMicros);
  });
}

export async function revokeRole(
  db: Db,
  username: string,
  role: Role,
  nowMicros: number,
): Promise<void> {
  checkRole(role);
  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, username));
    if (!user) throw new AdminError(`unknown user ${q(username)}`);
    await setRole(tx, user.id, role, false, nowMicros);
  });
}

/** Sets the flag, recording a change (only a change) in the audit trail. */
export async function setRole(tx: Db, id: number, role: Role, on: boolean, nowMicros: number) {
  const column = role === 'admin' ? users.isAdmin : users.isStaff;
  const field = role === 'admin' ? 'is_admin' : 'is_staff';
  const [old] = await tx
    .select({ value: column })
    .from(users)
    .where(eq(users.id, id))
    .for('update');
  if (old.value === on) return;
  await tx
    .update(users)
    .set(role === 'admin' ? { isAdmin: on } : { isStaff: on })
    .where(eq(users.id, id));
  await recordAudit(
    tx,
    {
      kind: on ? 'role.granted' : 'role.revoked',
      via: 'admin-command',
      userId: id,
      before: { [field]: old.value },
      after: { [field]: on },
    },
    nowMicros,
  );
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
  const [old] = await db.select().from(stores).where(eq(stores.gln, gln)).for('update');
  const [row] = await db
    .insert(stores)
    .values({ ...values, created: now })
    .onConflictDoUpdate({ target: stores.gln, set: changes })
    .returning();
  const diff = changedFields(old ? auditedStore(old) : {}, auditedStore(row));
  if (diff) {
    await recordAudit(
      db,
      {
        kind: old ? 'store.updated' : 'store.created',
        via: 'admin-command',
        storeId: row.id,
        ...diff,
      },
      parseTimestamp(now),
    );
  }
  return old ? 'updated' : 'created';
}

/** A store's settings as the trail records them (the API's names and forms). */
function auditedStore(row: typeof stores.$inferSelect): Record<string, unknown> {
  return {
    gln: row.gln,
    name: row.name,
    active_period: formatDuration(row.activePeriodSeconds),
    carts_for_random_control: row.cartsForRandomControl,
  };
}

export async function upsertStore(
  db: Db,
  input: StoreInput,
  nowMicros: number,
): Promise<'created' | 'updated'> {
  const values = storeValues(input);
  return db.transaction((tx) => writeStore(tx, values, formatMicros(nowMicros)));
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
