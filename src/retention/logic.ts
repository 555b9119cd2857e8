import { AUDIT_MIN_DAYS } from '../config.js';
import type { Database } from '../db/client.js';
import { type Run, type Statement, statement } from '../db/statement.js';

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
 * The audit trail has a period of its own (`auditDays`, AUDIT_RETENTION_DAYS): it records
 * what staff did and outlives the carts. Its rows go only through the database's
 * audit_events_remove_before (drizzle/0016), which refuses a cutoff under 30 days.
 *
 * One run at a time: each batch takes a transaction-scoped advisory lock (no session
 * state: it works through PgBouncer in transaction mode) and a run that finds it taken
 * leaves the work to the run holding it.
 */

/** pg_try_advisory_xact_lock key of retention batches ("retent" in ASCII, folded). */
export const RETENTION_LOCK = 727_274_020;

/** The most events audit_events_remove_before removes in one call. */
const AUDIT_MAX_BATCH = 10_000;

export interface RetentionOptions {
  /** Carts and the rows that go with them: keep this many whole UTC days before today (and today). */
  days: number;
  /** Audit events: keep this many whole UTC days (at least AUDIT_MIN_DAYS); 0: keep them all. */
  auditDays: number;
  nowMicros: number;
  /** Rows per transaction. */
  batchSize?: number;
  /** Called between batches (the scheduled run yields to requests there). */
  betweenBatches?: () => Promise<void>;
}

/** Every kind of row a run removes, counted. */
export interface RetentionCounts {
  carts: number;
  /** Lines of the removed carts (they go with their cart). */
  lines: number;
  /** Checkout records (order numbers) of the removed carts. */
  checkouts: number;
  /** Links between controls and the removed carts. */
  controlLinks: number;
  controls: number;
  randomDraws: number;
  restoreCodes: number;
  /** Counts of failed logins whose 24-hour window began before the cutoff (src/protections/failures.ts). */
  loginFailures: number;
  /** Rows of the statistics (days, hours, months) that no cart counts in any more. */
  rollupRows: number;
  auditEvents: number;
}

export interface RetentionResult extends RetentionCounts {
  /** Carts created before this instant were removed (and the other rows of the same period). */
  cutoff: string;
  /** Audit events created before this instant were removed; null: the trail is kept whole. */
  auditCutoff: string | null;
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
 * finish). A cart checked out unconfirmed (its order placed, its number not yet stored:
 * decision 0001) is kept until its record is: it is the only trace here of that order. `created` leads, so the `created` index finds them oldest first; SKIP LOCKED
 * passes over a cart some request holds. The cascade removes items, checkouts and
 * control_carts (counted here: the statement's snapshot still holds them);
 * shopping_lists.cart_id is set null (indexed, migration 0005).
 */
const DELETE_CARTS = statement(`with doomed as (
    select id from carts
    where created < $1::timestamptz and checkout_unconfirmed_at is null
      and (checked_out or (last_activity < $1::timestamptz and not checkout_frozen
        and checkout_started_at is null))
    order by created limit $2 for update skip locked),
  gone as (delete from carts c using doomed d where c.id = d.id returning 1)
  select (select count(*) from gone)::int as removed,
    (select count(*) from items i where i.cart_id in (select id from doomed))::int as lines,
    (select count(*) from checkouts k where k.cart_id in (select id from doomed))::int
      as checkouts,
    (select count(*) from control_carts l where l.cart_id in (select id from doomed))::int
      as "controlLinks"`);

/** Controls from before the cutoff left without carts (their carts are gone). */
const DELETE_CONTROLS = statement(`with doomed as (
    select k.id from controls k
    where k.created < $1::timestamptz
      and not exists (select 1 from control_carts cc where cc.control_id = k.id)
    order by k.created limit $2 for update skip locked),
  gone as (delete from controls k using doomed d where k.id = d.id returning 1)
  select count(*)::int as removed from gone`);

/** Draws of random controls per user and day (the `users` criterion) of days gone. */
const DELETE_DRAWS = statement(`with doomed as (
    select user_id, store_id, day from random_control_draws
    where day < ($1::timestamptz at time zone 'UTC')::date limit $2),
  gone as (delete from random_control_draws r using doomed d
    where (r.user_id, r.store_id, r.day) = (d.user_id, d.store_id, d.day) returning 1)
  select count(*)::int as removed from gone`);

/**
 * Restore codes (metadata: username and times) expired before the cutoff, whose daily budget
 * window also began before it (removing the row would start the account's budget afresh).
 */
const DELETE_RESTORE_CODES = statement(`with doomed as (
    select id from restore_codes
    where expires_at < $1::timestamptz and window_start < $1::timestamptz limit $2),
  gone as (delete from restore_codes r using doomed d where r.id = d.id returning 1)
  select count(*)::int as removed from gone`);

/**
 * Failed-login counts (account, address, number) whose window began before the cutoff: a
 * day or more ago, so the lockout they count is over; the rest are the bounds in force.
 */
const DELETE_LOGIN_FAILURES = statement(`with doomed as (
    select account, scope from login_failures where window_start < $1::timestamptz limit $2),
  gone as (delete from login_failures f using doomed d
    where (f.account, f.scope) = (d.account, d.scope) returning 1)
  select count(*)::int as removed from gone`);

/**
 * Rollup rows of days before the cutoff that no cart counts in any more, and the coarser
 * grains' rows of whole periods before it (per store by month; over all stores by day and
 * month; days and hours whatever the flags). A row of figures all zero adds nothing to a
 * sum: only their number goes.
 */
const DELETE_EMPTY_ROLLUPS = statement(`with cutoff as (
    select $1::timestamptz at time zone 'UTC' as t),
  rollups as (delete from cart_rollups r using cutoff
    where r.day < cutoff.t::date
      and r.carts = 0 and r.items_count = 0 and r.total_quantity = 0 returning 1),
  counts as (delete from cart_counts n using cutoff
    where n.day < cutoff.t::date and n.carts = 0 returning 1),
  store_months as (delete from cart_grains g using cutoff
    where g.grain = 'M' and g.period < date_trunc('month', cutoff.t)::date
      and g.carts = 0 and g.items_count = 0 and g.total_quantity = 0 returning 1),
  all_stores as (delete from cart_grains_all a using cutoff
    where (a.grain = 'D' and a.period < cutoff.t::date
        or a.grain = 'M' and a.period < date_trunc('month', cutoff.t)::date)
      and a.carts = 0 and a.items_count = 0 and a.total_quantity = 0 returning 1),
  days as (delete from cart_days y using cutoff
    where y.day < cutoff.t::date and y.carts = 0 and y.items_count = 0
      and y.total_quantity = 0 returning 1),
  hours as (delete from cart_hours h using cutoff
    where h.hour < cutoff.t and h.carts = 0 and h.items_count = 0 and h.total_quantity = 0
    returning 1)
  select ((select count(*) from rollups) + (select count(*) from counts)
    + (select count(*) from store_months) + (select count(*) from all_stores)
    + (select count(*) from days) + (select count(*) from hours))::int as "rollupRows"`);

/**
 * Audit events before the audit cutoff, through the one door the service's database role has
 * (drizzle/0016): the function runs as the trail's owner and refuses a cutoff under 30 days.
 */
const DELETE_AUDIT_EVENTS = statement(
  'select public.audit_events_remove_before($1::timestamptz, $2::integer) as removed',
);

type Removed = Partial<RetentionCounts> & { removed: number };

/** In order, each answering one row: `removed` (the step's own rows) and what went with them. */
const STEPS = {
  carts: DELETE_CARTS,
  controls: DELETE_CONTROLS,
  randomDraws: DELETE_DRAWS,
  restoreCodes: DELETE_RESTORE_CODES,
  loginFailures: DELETE_LOGIN_FAILURES,
  auditEvents: DELETE_AUDIT_EVENTS,
} satisfies Record<string, Statement>;

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
): Promise<Removed | null> {
  return database.transaction(async (run: Run) => {
    const [{ locked }] = await run<{ locked: boolean }>(LOCK, [RETENTION_LOCK]);
    if (!locked) return null;
    const [row] = await run<Removed>(STEPS[step], [cutoff, size]);
    if (step === 'carts' && row.removed < size) {
      // The last batch: the emptied rollup rows of the days gone, under the same lock.
      const [{ rollupRows }] = await run<{ rollupRows: number }>(DELETE_EMPTY_ROLLUPS, [cutoff]);
      return { ...row, rollupRows };
    }
    return row;
  });
}

export async function runRetention(
  database: Database,
  options: RetentionOptions,
): Promise<RetentionResult> {
  const size = options.batchSize ?? 1000;
  if (options.auditDays !== 0 && options.auditDays < AUDIT_MIN_DAYS) {
    throw new RangeError(`audit events are kept at least ${AUDIT_MIN_DAYS} days`);
  }
  const cutoff = retentionCutoff(options.days, options.nowMicros);
  const auditCutoff =
    options.auditDays > 0 ? retentionCutoff(options.auditDays, options.nowMicros) : null;
  const result: RetentionResult = {
    cutoff,
    auditCutoff,
    carts: 0,
    lines: 0,
    checkouts: 0,
    controlLinks: 0,
    controls: 0,
    randomDraws: 0,
    restoreCodes: 0,
    loginFailures: 0,
    rollupRows: 0,
    auditEvents: 0,
    batches: 0,
    busy: false,
  };
  // Carts first: their controls are left without carts only once they are gone.
  for (const step of Object.keys(STEPS) as Step[]) {
    const stepCutoff = step === 'auditEvents' ? auditCutoff : cutoff;
    if (stepCutoff === null) continue;
    const stepSize = step === 'auditEvents' ? Math.min(size, AUDIT_MAX_BATCH) : size;
    for (;;) {
      const row = await batch(database, step, stepCutoff, stepSize);
      if (row === null) {
        result.busy = true;
        return result;
      }
      result.batches += 1;
      const { removed, ...alongside } = row;
      result[step] += removed;
      for (const [kind, count] of Object.entries(alongside) as [keyof RetentionCounts, number][])
        result[kind] += count;
      if (removed < stepSize) break;
      await options.betweenBatches?.();
    }
  }
  return result;
}

/** The run's counts in words, every kind of row named (the admin command's summary). */
export function describeRetention(r: RetentionResult): string {
  const carts = `${r.carts} carts with ${r.lines} lines, ${r.checkouts} checkout records and ${r.controlLinks} control links, ${r.controls} controls, ${r.randomDraws} random-control draws, ${r.restoreCodes} restore codes, ${r.loginFailures} failed-login counts and ${r.rollupRows} emptied statistics rows from before ${r.cutoff}`;
  const audit =
    r.auditCutoff === null
      ? 'no audit events (the trail is kept whole)'
      : `${r.auditEvents} audit events from before ${r.auditCutoff}`;
  return `removed ${carts}; ${audit} (${r.batches} batches)`;
}
