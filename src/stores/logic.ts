import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { storeHours, stores } from '../db/schema.js';
import { Invalid, NotFound } from '../errors.js';
import { parseDuration } from './duration.js';
import { findStore, findStoreRow, storeRecord } from './queries.js';
import { type Store, type StoreHoursBody, type StoreUpdateBody, WEEKDAYS } from './schemas.js';

type Problems = Record<string, string[]>;

/** Changes only the fields given; `gln` and `id` are not in the body schema, so ignored. */
export async function updateStore(db: Db, gln: string, body: StoreUpdateBody): Promise<Store> {
  const changes: Partial<typeof stores.$inferInsert> = {};
  const problems: Problems = {};
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
  if (Object.keys(problems).length > 0) throw new Invalid(problems);
  if (Object.keys(changes).length === 0) return findStore(db, gln);
  const [row] = await db.update(stores).set(changes).where(eq(stores.gln, gln)).returning();
  if (!row) throw new NotFound('store');
  return storeRecord(row);
}

const seconds = (time: string) => {
  const [h, m, s] = time.split(':').map(Number);
  return h * 3600 + m * 60 + (s ?? 0);
};

/**
 * Errors per item as `"<index>.<field>"`, the keys src/http/validation.ts gives nested
 * schema errors, so a client reads one shape whichever check failed.
 */
function checkHours(body: StoreHoursBody): void {
  if (body.length === 0) throw Invalid.nonField('This list may not be empty.');
  const problems: Problems = {};
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
  if (Object.keys(problems).length > 0) throw new Invalid(problems);
}

/** Upserts only the weekdays given, all or none. */
export async function setStoreHours(db: Db, gln: string, body: StoreHoursBody): Promise<void> {
  const store = await findStoreRow(db, gln);
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
