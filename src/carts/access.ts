import { eq, type SQL, sql } from 'drizzle-orm';
import { carts, stores } from '../db/schema.js';
import { type AuthUser, isStaff } from '../http/auth.js';

/** Carts a user may see: their own; staff and admins see all. */
export function visibleTo(user: AuthUser): SQL | undefined {
  return isStaff(user) ? undefined : eq(carts.userId, user.id);
}

/**
 * docs/http-contract.md: a cart with a store is active while now < last_activity + active_period;
 * one without a store until it is checked out. Needs `stores` left-joined.
 */
export function activeAt(nowIso: string): SQL {
  return sql`(case when ${carts.storeId} is null then not ${carts.checkedOut}
    else ${carts.lastActivity} + make_interval(secs => ${stores.activePeriodSeconds}) > ${nowIso}::timestamptz end)`;
}
