import { formatMicros } from '../clock.js';
import type { Params } from '../db/statement.js';
import { type AuthUser, isStaff } from '../http/auth.js';
import { dateTimeQuery, isTrue } from '../http/query.js';
import { activeCondition } from './access.js';
import type { CartFilters } from './schemas.js';

/** The filters of the cart list, stats and time series, read once from the query string. */
export interface CartFilter {
  /** Set for a customer: only their own carts. Staff and admins see all carts. */
  ownerId?: number;
  active?: boolean;
  /** Contract timestamp text; `created > after`. */
  after?: string;
  /** Contract timestamp text; `created < before`. */
  before?: string;
  checkedOut?: boolean;
  gln?: string;
  excludeWarehouse: boolean;
  availabilityError?: boolean;
  eachUser: boolean;
  userId?: number;
  /** The request's instant, for `active`. */
  now: string;
}

/** Any instant, for the filters of a fixed statement's text (it holds parameters, not values). */
export const ANY_INSTANT = '2026-01-01T00:00:00Z';

/** A 400 on the field of an unreadable date. */
export function readCartFilter(user: AuthUser, query: CartFilters, nowMicros: number): CartFilter {
  return {
    ownerId: isStaff(user) ? undefined : user.id,
    active: isTrue(query.active),
    after: dateTimeQuery('created_after', query.created_after),
    before: dateTimeQuery('created_before', query.created_before),
    checkedOut: isTrue(query.checkout),
    gln: query.gln,
    excludeWarehouse: isTrue(query.exclude_warehouse) === true,
    availabilityError: isTrue(query.checkout_availability_error),
    eachUser: isTrue(query.each_user) === true,
    userId: query.user === undefined ? undefined : Number(query.user),
    now: formatMicros(nowMicros),
  };
}

/** The filter needs `stores` joined (as `s`): `active` depends on the store's active period. */
export const needsStores = (f: CartFilter) => f.active !== undefined || f.eachUser;

/** The filter's conditions on `carts` as `c` (and `stores` as `s` where `needsStores`). */
export function cartConditions(f: CartFilter, p: Params, c = 'c', s = 's'): string[] {
  const where: string[] = [];
  if (f.ownerId !== undefined) where.push(`${c}.user_id = ${p.add(f.ownerId)}`);
  if (f.active !== undefined) {
    const active = activeCondition(c, s, p.add(f.now));
    where.push(f.active ? active : `not ${active}`);
  }
  where.push(...flagConditions(f, p, c));
  if (f.after !== undefined) where.push(`${c}.created > ${p.add(f.after)}::timestamptz`);
  if (f.before !== undefined) where.push(`${c}.created < ${p.add(f.before)}::timestamptz`);
  if (f.userId !== undefined) where.push(`${c}.user_id = ${p.add(f.userId)}`);
  if (f.eachUser) {
    // Per user, the most recent active cart among those the other filters keep.
    const inner = cartConditions({ ...f, eachUser: false }, p, 'e', 'es');
    inner.push(activeCondition('e', 'es', p.add(f.now)));
    where.push(`${c}.id in (select distinct on (e.user_id) e.id from carts e
      left join stores es on es.id = e.store_id
      where ${inner.join(' and ')}
      order by e.user_id, e.created desc, e.id desc)`);
  }
  return where;
}

/**
 * The conditions a cart's rollup row can answer too (store, checked out, availability
 * error): the same text on `carts` and on `cart_rollups` (src/carts/rollups.ts).
 */
export function flagConditions(f: CartFilter, p: Params, t: string): string[] {
  const where: string[] = [];
  if (f.checkedOut !== undefined) where.push(`${f.checkedOut ? '' : 'not '}${t}.checked_out`);
  if (f.gln !== undefined) {
    where.push(`${t}.store_id = (select id from stores where gln = ${p.add(f.gln)})`);
  }
  if (f.excludeWarehouse) where.push(`${t}.store_id is not null`);
  if (f.availabilityError !== undefined) {
    where.push(`${f.availabilityError ? '' : 'not '}${t}.checkout_availability_error`);
  }
  return where;
}

export const whereClause = (conditions: string[]) =>
  conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`;
