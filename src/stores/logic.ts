import { eq, sql } from 'drizzle-orm';
import { changedFields, recordAudit } from '../audit/logic.js';
import type { Db, Tx } from '../db/client.js';
import { storeHours, stores } from '../db/schema.js';
import { Invalid, NotFound } from '../errors.js';
import { parseDuration } from './duration.js';
import { findStore, findStoreRow, storeRecord } from './queries.js';
import { type Store, type StoreHoursBody, type StoreUpdateBody, WEEKDAYS } from './schemas.js';

type Problems = Record<string, string[]>;

/** Changes only the fields given; `gln` and `id` are not in the body schema, so ignored. */
export async function updateStore(
  db: Db,
  actor: { id: number },
  gln: string,
  body: StoreUpdateBody,
  nowMicros: number,
): Promise<Store> {
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
  return db.transaction(async (tx) => {
    const [old] = await tx.select().from(stores).where(eq(stores.gln, gln)).for('update');
    if (!old) throw new NotFound('store');
    const [row] = await tx.update(stores).set(changes).where(eq(stores.id, old.id)).returning();
    const diff = changedFields(auditedStore(old), auditedStore(row));
    if (diff) {
      await recordAudit(
        tx,
        { kind: 'store.updated', via: 'api', actorId: actor.id, storeId: row.id, ...diff },
        nowMicros,
      );
    }
    return storeRecord(row);
  });
}

/** The fields of a store the trail records, as the API writes them. */
function auditedStore(row: typeof stores.$inferSelect): Record<string, unknown> {
  const { name, active_period, carts_for_random_control } = storeRecord(row);
  return { name, active_period, carts_for_random_control };
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
export async function setStoreHours(
  db: Db,
  actor: { id: number },
  gln: string,
  body: StoreHoursBody,
  nowMicros: number,
): Promise<void> {
  const store = await findStoreRow(db, gln);
  checkHours(body);
  await db.transaction(async (tx) => {
    // The store row locked: two changes of its hours are recorded in the order they were made.
    await tx.select({ id: stores.id }).from(stores).where(eq(stores.id, store.id)).for('update');
    const old = await tx.select().from(storeHours).where(eq(storeHours.storeId, store.id));
    await writeHours(tx, store.id, body);
    const hours = (
      rows: { weekday: number; openingTime: string | null; closingTime: string | null }[],
    ) =>
      Object.fromEntries(
        rows.map((r) => [
          WEEKDAYS[r.weekday],
          { opening_time: r.openingTime, closing_time: r.closingTime },
        ]),
      );
    const given = body.map((entry) => ({
      weekday: WEEKDAYS.indexOf(entry.weekday),
      openingTime: normalTime(entry.opening_time),
      closingTime: normalTime(entry.closing_time),
    }));
    const before = hours(old.filter((r) => given.some((g) => g.weekday === r.weekday)));
    const diff = changedFields(
      Object.fromEntries(
        given.map((g) => [WEEKDAYS[g.weekday], before[WEEKDAYS[g.weekday]] ?? null]),
      ),
      hours(given),
    );
    if (diff) {
      await recordAudit(
        tx,
        { kind: 'store.hours_updated', via: 'api', actorId: actor.id, storeId: store.id, ...diff },
        nowMicros,
      );
    }
  });
}

/** `HH:MM` as the database writes it back (`HH:MM:SS`), so an unchanged day is no change. */
const normalTime = (time: string | null) =>
  time === null || time.length > 5 ? time : `${time}:00`;

/** One statement: every weekday given is written, or none. */
async function writeHours(tx: Tx, storeId: number, body: StoreHoursBody): Promise<void> {
  await tx
    .insert(storeHours)
    .values(
      body.map((entry) => ({
        storeId,
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
