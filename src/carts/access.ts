import { eq, type SQL, sql } from 'drizzle-orm';
import { carts } from '../db/schema.js';
import { type AuthUser, isStaff } from '../http/auth.js';

/** Carts a user may see: their own; staff and admins see all. */
export function visibleTo(user: AuthUser): SQL | undefined {
  return isStaff(user) ? undefined : eq(carts.userId, user.id);
}

/**
 * docs/http-contract.md: a cart with a store is active while now < last_activity +
 * active_period; one without a store until it is checked out. The one text of the rule:
 * `c`/`s` name `carts` and the left-joined `stores`, `now` the instant's parameter.
 */
export function activeCondition(c: string, s: string, now: string): string {
  return `(case when ${c}.store_id is null then not ${c}.checked_out
    else ${c}.last_activity + make_interval(secs => ${s}.active_period_seconds) > ${now}::timestamptz end)`;
}

/** The same rule for the query builder (`stores` joined), the instant bound as a parameter. */
export function activeAt(nowIso: string): SQL {
  const [before, after] = activeCondition('carts', 'stores', '\0').split('\0');
  return sql`${sql.raw(before)}${nowIso}${sql.raw(after)}`;
}
