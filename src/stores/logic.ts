import { asc, eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { formatDbTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import { storeHours, stores } from '../db/schema.js';
import { errors, type FieldErrors } from '../http/errors.js';
import { formatDuration, parseDuration } from './duration.js';
import { type StoreHour, type StoreHoursBody, type StoreUpdateBody, WEEKDAYS } from './schemas.js';

export function storeRecord(row: typeof stores.$inferSelect) {
  return {
    id: row.id,
    gln: row.gln,
    name: row.name,
    active_period: formatDuration(row.activePeriodSeconds),
    carts_for_random_control: row.cartsForRandomControl,
    created: formatDbTimestamp(row.created) as string,
  };
}

export async function countStores(db: Db): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(stores);
  return row.count;
}

export async function listStores(db: Db, limit: number, offset: number) {
  const rows = await db
    .select()
    .from(stores)
    .orderBy(asc(stores.name), asc(stores.id))
    .limit(limit)
    .offset(offset);
  return rows.map(storeRecord);
}

export async function findStore(db: Db, gln: string) {
  const [row] = await db.select().from(stores).where(eq(stores.gln, gln));
  if (!row) throw errors.notFound();
  return row;
}

/** Changes only the fields given; `gln` and `id` are not in the body schema, so ignored. */
export async function updateStore(db: Db, gln: string, body: Static<typeof StoreUpdateBody>) {
  const changes: Partial<typeof stores.$inferInsert> = {};
  const problems: FieldErrors = {};
  if (body.active_period !== undefined) {
    const seconds = parseDuration(body.active_period);
    if (seconds === null) {
      problems.active_period = ['Enter a valid duration: HH:MM:SS or HH:MM (hours may exceed 23).'];
    } else changes.activePeriodSeconds = seconds;
  }
  if (body.name !== undefined) {
    // As DRF's CharField: surrounding whitespace is trimmed, and blank is refused.
    const name = body.name.trim();
    if (name === '') problems.name = ['This field may not be blank.'];
    else changes.name = name;
  }
  if (body.carts_for_random_control !== undefined) {
    changes.cartsForRandomControl = body.carts_for_random_control;
  }
  if (Object.keys(problems).length > 0) throw errors.validation(problems);
  if (Object.keys(changes).length === 0) return storeRecord(await findStore(db, gln));
  const [row] = await db.update(stores).set(changes).where(eq(stores.gln, gln)).returning();
  if (!row) throw errors.notFound();
  return storeRecord(row);
}

/** `HH:MM:SS` from the database's `time` text (which may carry fractions). */
const timeText = (value: string | null) => (value === null ? null : value.slice(0, 8));

/** Seven entries, Monday first; a weekday with no row is closed. */
export async function storeHoursOf(db: Db, gln: string): Promise<Static<typeof StoreHour>[]> {
  const store = await findStore(db, gln);
  const rows = await db.select().from(storeHours).where(eq(storeHours.storeId, store.id));
  const byDay = new Map(rows.map((r) => [r.weekday, r]));
  return WEEKDAYS.map((weekday, index) => {
    const row = byDay.get(index);
    return {
      weekday,
      opening_time: timeText(row?.openingTime ?? null),
      closing_time: timeText(row?.closingTime ?? null),
    };
  });
}

const seconds = (time: string) => {
  const [h, m, s] = time.split(':').map(Number);
  return h * 3600 + m * 60 + (s ?? 0);
};

/**
 * Errors per item as `"<index>.<field>"`, the keys src/http/validation.ts gives nested
 * schema errors, so a client reads one shape whichever check failed.
 */
function checkHours(body: Static<typeof StoreHoursBody>): void {
  if (body.length === 0) throw errors.nonField('This list may not be empty.');
  const problems: FieldErrors = {};
  const seen = new Set<string>();
  body.forEach((entry, index) => {
    if (seen.has(entry.weekday)) {
      problems[`${index}.weekday`] = [`"${entry.weekday}" is given more than once.`];
    }
    seen.add(entry.weekday);
    const { opening_time: opening, closing_time: closing } = entry;
    if ((opening === null) !== (closing === null)) {
      const missing = opening === null ? 'opening_time' : 'closing_time';
      problems[`${index}.${missing}`] = [
        'Give both opening_time and closing_time, or null for both (closed).',
      ];
    } else if (opening !== null && closing !== null && seconds(opening) >= seconds(closing)) {
      problems[`${index}.closing_time`] = ['Closing time must be after opening time.'];
    }
  });
  if (Object.keys(problems).length > 0) throw errors.validation(problems);
}

/** Upserts only the weekdays given, all or none. */
export async function setStoreHours(
  db: Db,
  gln: string,
  body: Static<typeof StoreHoursBody>,
): Promise<void> {
  const store = await findStore(db, gln);
  checkHours(body);
  // One statement: every weekday given is written, or none.
  await db
    .insert(storeHours)
    .values(
      body.map((entry) => ({
        storeId: store.id,
        weekday: WEEKDAYS.indexOf(entry.weekday),
        openingTime: entry.opening_time,
        closingTime: entry.closing_time,
      })),
    )
    .onConflictDoUpdate({
      target: [storeHours.storeId, storeHours.weekday],
      set: {
        openingTime: sql`excluded.opening_time`,
        closingTime: sql`excluded.closing_time`,
      },
    });
}
