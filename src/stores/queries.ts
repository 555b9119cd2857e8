import { asc, eq } from 'drizzle-orm';
import { formatDbTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import { type PageSource, tablePage } from '../db/pages.js';
import { storeHours, stores } from '../db/schema.js';
import { NotFound } from '../errors.js';
import { formatDuration } from './duration.js';
import { type Store, type StoreHour, WEEKDAYS } from './schemas.js';

type StoreRow = typeof stores.$inferSelect;

export function storeRecord(row: StoreRow): Store {
  return {
    id: row.id,
    gln: row.gln,
    name: row.name,
    active_period: formatDuration(row.activePeriodSeconds),
    carts_for_random_control: row.cartsForRandomControl,
    created: formatDbTimestamp(row.created) as string,
  };
}

/** Every store, by name then id. */
export function allStores(db: Db): PageSource<Store> {
  return tablePage(db, stores, {
    orderBy: [asc(stores.name), asc(stores.id)],
    records: (rows) => rows.map(storeRecord),
  });
}

/** The store's row; NotFound('store') when the GLN is not a store of the service. */
export async function findStoreRow(db: Db, gln: string): Promise<StoreRow> {
  const [row] = await db.select().from(stores).where(eq(stores.gln, gln));
  if (!row) throw new NotFound('store');
  return row;
}

export async function findStore(db: Db, gln: string): Promise<Store> {
  return storeRecord(await findStoreRow(db, gln));
}

/** `HH:MM:SS` from the database's `time` text (which may carry fractions). */
const timeText = (value: string | null) => (value === null ? null : value.slice(0, 8));

/** Seven entries, Monday first; a weekday with no row is closed. */
export async function storeHoursOf(db: Db, gln: string): Promise<StoreHour[]> {
  const store = await findStoreRow(db, gln);
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
