import type { Database } from '../db/client.js';
import { statement } from '../db/statement.js';

const FOLD = statement('select cart_grains_fold() as folded');
const DAY_MICROS = 86_400_000_000;

/** Per database: the UTC day (days since the epoch) this process last gathered the shards. */
const foldedOn = new WeakMap<Database, number>();

/**
 * Writers spread the current day's and month's figures over all stores across 32 shards
 * (drizzle/0006_rollup_grains.sql); once a day or month is over, `cart_grains_fold()` gathers
 * its shards into one row, so a series over years reads one row per day. The figures are the
 * same before and after: this only keeps reads small. Run before the first staff read over
 * all carts of each UTC day, in its own short transaction; it never waits for a writer's rows
 * (decision 0010). A failure is the read's failure (the database's error mapping), and the
 * next read tries again.
 */
export async function foldGrainsDaily(database: Database, nowMicros: number): Promise<void> {
  const day = Math.floor(nowMicros / DAY_MICROS);
  if (foldedOn.get(database) === day) return;
  foldedOn.set(database, day);
  try {
    await database.run(FOLD, []);
  } catch (error) {
    foldedOn.delete(database);
    throw error;
  }
}
