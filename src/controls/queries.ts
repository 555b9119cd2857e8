import { and, asc, desc, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { formatDbTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import { groupBy } from '../db/pages.js';
import { controlCarts, controls } from '../db/schema.js';
import { NotFound } from '../errors.js';
import { type AuthUser, isStaff } from '../http/auth.js';
import { dateTimeQuery, isTrue, parseOrdering } from '../http/query.js';
import type { Control, ControlListQuery, ORDERING_KEYS } from './schemas.js';

export type ControlRow = typeof controls.$inferSelect;

/** A control row and its cart ids in the create form (also the list and detail form). */
export function controlRecord(row: ControlRow, cartIds: number[]): Control {
  return {
    id: row.id,
    created: formatDbTimestamp(row.created) as string,
    verified_at: formatDbTimestamp(row.verifiedAt),
    is_random: row.isRandom,
    status: row.status,
    user: row.userId,
    store: row.storeId,
    carts: cartIds,
    controller: row.controllerId,
  };
}

/** Controls in the create form, with their cart ids in one more query. */
export async function withCarts(db: Db, rows: ControlRow[]): Promise<Control[]> {
  const ids = rows.map((r) => r.id);
  const links =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(controlCarts)
          .where(inArray(controlCarts.controlId, ids))
          .orderBy(asc(controlCarts.cartId));
  const byControl = groupBy(links, (link) => link.controlId);
  return rows.map((row) =>
    controlRecord(
      row,
      (byControl.get(row.id) ?? []).map((link) => link.cartId),
    ),
  );
}

/** A customer sees the controls of their own carts; staff and admins see all. */
export function controlsVisibleTo(user: AuthUser): SQL | undefined {
  return isStaff(user) ? undefined : eq(controls.userId, user.id);
}

/** The WHERE of the control list: the controls the user sees, filtered. */
export function controlFilter(user: AuthUser, query: ControlListQuery): SQL | undefined {
  const after = dateTimeQuery('created_after', query.created_after);
  const before = dateTimeQuery('created_before', query.created_before);
  return and(
    controlsVisibleTo(user),
    query.status === undefined ? undefined : eq(controls.status, query.status),
    query.store === undefined ? undefined : eq(controls.storeId, Number(query.store)),
    query.user === undefined ? undefined : eq(controls.userId, Number(query.user)),
    query.is_random === undefined ? undefined : eq(controls.isRandom, !!isTrue(query.is_random)),
    after === undefined ? undefined : gt(controls.created, after),
    before === undefined ? undefined : lt(controls.created, before),
  );
}

export async function countControls(db: Db, where: SQL | undefined): Promise<number> {
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(controls)
    .where(where);
  return count;
}

/** One page of controls, newest first unless `ordering` is `created`. */
export async function listControls(
  db: Db,
  where: SQL | undefined,
  ordering: string | undefined,
  limit: number,
  offset: number,
): Promise<Control[]> {
  const { descending } = parseOrdering<(typeof ORDERING_KEYS)[number]>(ordering, '-created');
  const direction = descending ? desc : asc;
  const rows = await db
    .select()
    .from(controls)
    .where(where)
    .orderBy(direction(controls.created), direction(controls.id))
    .limit(limit)
    .offset(offset);
  return withCarts(db, rows);
}

/** One control the user sees. */
export async function getControl(db: Db, user: AuthUser, id: number): Promise<Control> {
  const rows = await db
    .select()
    .from(controls)
    .where(and(controlsVisibleTo(user), eq(controls.id, id)));
  const [control] = await withCarts(db, rows);
  if (!control) throw new NotFound('control');
  return control;
}
