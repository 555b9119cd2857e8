import type { Database } from '../db/client.js';
import { type Run, statement } from '../db/statement.js';

/**
 * Retention: carts (with their lines, checkout records and control links) created before
 * the retention period are removed, in batches of small transactions, so that a table that
 * grows by a million carts a year stays in check. Orders live in the ERP (its order numbers
 * are the record); the service's carts are the working copies that led to them.
 *
 * The period is whole UTC days: everything created before midnight UTC `days` days ago.
 * `cart_rollups`, `cart_counts` and the coarser grains (drizzle/0010, 0013, 0014) are kept
 * by the trigger on `carts`, so deleting a cart takes it out of its day's figures in the same
 * transaction, and the days kept are never touched: their statistics and time series stay
 * exactly what they were.
 *
 * One run at a time: each batch takes a transaction-scoped advisory lock (no session
 * state: it works through PgBouncer in transaction mode) and a run that finds it taken
 * leaves the work to the run holding it.
 */

/** pg_try_advisory_xact_lock key of retention batches ("retent" in ASCII, folded). */
export const RETENTION_LOCK = 727_274_020;

export interface RetentionOptions {
  /** Keep this many whole UTC days before today (and today). */
  days: number;
  nowMicros: number;
  /** Carts per transaction. */
  batchSize?: number;
  /** Called between batches (the scheduled run yields to requests there). */
  betweenBatches?: () => Promise<void>;
}

export interface RetentionResult {
  /** Carts created before this instant were removed. */
  cutoff: string;
  carts: number;
  controls: number;
  randomDraws: number;
  restoreCodes: number;
  /** Counts of failed logins whose 24-hour window began before the cutoff (src/protections/failures.ts). */
  loginFailures: number;
  auditEvents: number;
  batches: number;
  /** Another run held the lock: this one stopped. */
  busy: boolean;
}

const DAY_MICROS = 86_400_000_000;

/** Midnight UTC `days` days before the day of `nowMicros`. */
export function retentionCutoff(days: number, nowMicros: number): string {
  const today = Math.floor(nowMicros / DAY_MICROS) * DAY_MICROS;
  return new Date((today - days * DAY_MICROS) / 1000).toISOString();
}

const LOCK = statement('select pg_try_advisory_xact_lock($1) as locked');

/**
 * Carts that are done with: checked out, or abandoned (no activity since the cutoff, never
 * sent: a frozen cart's order may have reached the ERP, and a checkout in flight is left to
 * finish). `created` leads, so the `created` index finds them oldest first; SKIP LOCKED
 * passes over a cart some request holds. The cascade removes items, checkouts and
 * control_carts; shopping_lists.cart_id is set null (indexed, migration 0005).
 */
const DELETE_CARTS = statement(`with doomed as (
    select id from carts
    where created < $1::timestamptz
      and (checked_out or (last_activity < $1::timestamptz and not checkout_frozen
        and checkout_started_at is null))
    order by created limit $2 for update skip locked)
  delete from carts c using doomed d where c.id = d.id returning 1 as one`);

/** Controls from before the cutoff left without carts (their carts are gone). */
const DELETE_CONTROLS = statement(`with doomed as (
    select k.id from controls k
    where k.created < $1::timestamptz
      and not exists (select 1 from control_carts cc where cc.control_id = k.id)
    order by k.created limit $2 for update skip locked)
  delete from controls k using doomed d where k.id = d.id returning 1 as one`);

/** Draws of random controls per user and day (the `users` criterion) of days gone. */
const DELETE_DRAWS = statement(`with doomed as (
    select user_id, store_id, day from random_control_draws
    where day < ($1::timestamptz at time zone 'UTC')::date limit $2)
  delete from random_control_draws r using doomed d
  where (r.user_id, r.store_id, r.day) = (d.user_id, d.store_id, d.day) returning 1 as one`);

/**
 * Restore codes (metadata: username and times) expired before the cutoff, whose daily budget
 * window also began before it (removing the row would start the account's budget afresh).
 */
const DELETE_RESTORE_CODES = statement(`with doomed as (
    select id from restore_codes
    where expires_at < $1::timestamptz and window_start < $1::timestamptz limit $2)
  delete from restore_codes r using doomed d where r.id = d.id returning 1 as one`);

/** Failed-login counts whose window began before the cutoff (a day or more ago: ended). */
const DELETE_LOGIN_FAILURES = statement(`with doomed as (
    select account, scope from login_failures where window_start < $1::timestamptz limit $2)
  delete from login_failures f using doomed d
  where (f.account, f.scope) = (d.account, d.scope) returning 1 as one`);

/** Rollup rows of days before the cutoff that no cart counts in any more. */
const DELETE_EMPTY_ROLLUPS = statement(`delete from cart_rollups
  where day < ($1::timestamptz at time zone 'UTC')::date
    and carts = 0 and items_count = 0 and total_quantity = 0`);
const DELETE_EMPTY_COUNTS = statement(`delete from cart_counts
  where day < ($1::timestamptz at time zone 'UTC')::date and carts = 0`);
/**
 * The coarser grains' rows of whole periods before the cutoff that no cart counts in any
 * more (per store by month; over all stores by day and month; days and hours whatever the
 * flags). A row of figures all zero adds nothing to a sum: only their number goes.
 */
const DELETE_EMPTY_GRAINS = statement(`with cutoff as (
    select $1::timestamptz at time zone 'UTC' as t),
  store_months as (delete from cart_grains g using cutoff
    where g.grain = 'M' and g.period < date_trunc('month', cutoff.t)::date
      and g.carts = 0 and g.items_count = 0 and g.total_quantity = 0),
  all_stores as (delete from cart_grains_all a using cutoff
    where (a.grain = 'D' and a.period < cutoff.t::date
        or a.grain = 'M' and a.period < date_trunc('month', cutoff.t)::date)
      and a.carts = 0 and a.items_count = 0 and a.total_quantity = 0),
  days as (delete from cart_days y using cutoff
    where y.day < cutoff.t::date and y.carts = 0 and y.items_count = 0
      and y.total_quantity = 0),
  hours as (delete from cart_hours h using cutoff
    where h.hour < cutoff.t and h.carts = 0 and h.items_count = 0 and h.total_quantity = 0)
  select 1 as one`);

/**
 * Audit events of the period gone. The trail is append-only: its trigger lets only a
 * transaction that declares itself retention delete (set_config(…, true): this transaction
 * only, so it holds behind a transaction pooler).
 */
const DELETE_AUDIT_EVENTS = statement(`with doomed as (
    select id from audit_events where created < $1::timestamptz order by created limit $2)
  delete from audit_events a using doomed d where a.id = d.id returning 1 as one`);
const AS_RETENTION = statement(`select set_config('ordering.retention', 'on', true) as on`);

/** In order, each returning a row per row removed. */
const STEPS = {
  carts: DELETE_CARTS,
  controls: DELETE_CONTROLS,
  randomDraws: DELETE_DRAWS,
  restoreCodes: DELETE_RESTORE_CODES,
  loginFailures: DELETE_LOGIN_FAILURES,
  auditEvents: DELETE_AUDIT_EVENTS,
};

type Step = keyof typeof STEPS;

/**
 * One batch of one step in its own transaction, under the advisory lock: the rows removed,
 * or null when another run holds the lock.
 */
async function batch(
  database: Database,
  step: Step,
  cutoff: string,
  size: number,
): Promise<number | null> {
  return database.transaction(async (run: Run) => {
    const [{ locked }] = await run<{ locked: boolean }>(LOCK, [RETENTION_LOCK]);
    if (!locked) return null;
    if (step === 'auditEvents') await run(AS_RETENTION, []);
    const rows = await run(STEPS[step], [cutoff, size]);
    if (step === 'carts' && rows.length < size) {
      // The last batch: the emptied rollup rows of the days gone, under the same lock.
      await run(DELETE_EMPTY_ROLLUPS, [cutoff]);
      await run(DELETE_EMPTY_COUNTS, [cutoff]);
      await run(DELETE_EMPTY_GRAINS, [cutoff]);
    }
    return rows.length;
  });
}

export async function runRetention(
  database: Database,
  options: RetentionOptions,
): Promise<RetentionResult> {
  const size = options.batchSize ?? 1000;
  const cutoff = retentionCutoff(options.days, options.nowMicros);
  const result: RetentionResult = {
    cutoff,
    carts: 0,
    controls: 0,
    randomDraws: 0,
    restoreCodes: 0,
    loginFailures: 0,
    auditEvents: 0,
    batches: 0,
    busy: false,
  };
  // Carts first: their controls are left without carts only once they are gone.
  for (const step of Object.keys(STEPS) as Step[]) {
    for (;;) {
      const removed = await batch(database, step, cutoff, size);
      if (removed === null) {
        result.busy = true;
        return result;
      }
      result.batches += 1;
      result[step] += removed;
      if (removed < size) break;
      await options.betweenBatches?.();
    }
  }
  return result;
}
