import { and, asc, eq, inArray, or, type SQL } from 'drizzle-orm';
import { activeAt } from '../carts/access.js';
import { formatDbTimestamp, formatMicros } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { carts, controlCarts, controls, stores, users } from '../db/schema.js';
import { type AuthUser, isStaff } from '../http/auth.js';
import { errors, type FieldErrors } from '../http/errors.js';
import type { Control, ControlCreateBody, ControlStatus } from './schemas.js';

type ControlRow = typeof controls.$inferSelect;

export interface NewControl {
  userId: number;
  storeId: number;
  status: ControlStatus;
  controllerId: number | null;
  isRandom: boolean;
  /** A cart attached even if it is no longer active (the cart a random draw was made on). */
  alsoCartId?: number;
}

/**
 * Creates a control holding every active cart of the user in the store. Returns null when
 * there is none (the caller decides whether that is an error).
 */
export async function insertControl(
  tx: Tx,
  control: NewControl,
  nowMicros: number,
): Promise<Control | null> {
  const now = formatMicros(nowMicros);
  const attach = activeAt(now);
  const cartRows = await tx
    .select({ id: carts.id })
    .from(carts)
    .innerJoin(stores, eq(stores.id, carts.storeId))
    .where(
      and(
        eq(carts.userId, control.userId),
        eq(carts.storeId, control.storeId),
        control.alsoCartId === undefined ? attach : or(attach, eq(carts.id, control.alsoCartId)),
      ),
    )
    .orderBy(asc(carts.id));
  if (cartRows.length === 0) return null;
  const [row] = await tx
    .insert(controls)
    .values({
      created: now,
      verifiedAt: control.status === 'verified' ? now : null,
      isRandom: control.isRandom,
      status: control.status,
      userId: control.userId,
      storeId: control.storeId,
      controllerId: control.controllerId,
    })
    .returning();
  const cartIds = cartRows.map((c) => c.id);
  await tx.insert(controlCarts).values(cartIds.map((cartId) => ({ controlId: row.id, cartId })));
  return controlRecord(row, cartIds);
}

/** POST controls/: an admin controls the active carts of `user` in `store`. */
export async function createControl(
  db: Db,
  admin: { id: number },
  body: ControlCreateBody,
  nowMicros: number,
): Promise<Control> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, body.user));
    const [store] = await tx
      .select({ id: stores.id })
      .from(stores)
      .where(eq(stores.id, body.store));
    const fieldErrors: FieldErrors = {};
    if (!user) fieldErrors.user = [`Invalid pk "${body.user}" - object does not exist.`];
    if (!store) fieldErrors.store = [`Invalid pk "${body.store}" - object does not exist.`];
    if (Object.keys(fieldErrors).length > 0) throw errors.validation(fieldErrors);
    const control = await insertControl(
      tx,
      {
        userId: body.user,
        storeId: body.store,
        status: body.status,
        controllerId: admin.id,
        isRandom: false,
      },
      nowMicros,
    );
    if (!control) throw errors.nonField('The user has no active cart in this store.');
    return control;
  });
}

/**
 * PATCH controls/{id}/: only pending → verified. Verifying a verified control changes
 * nothing (a retried request must not move `verified_at`). `afterVerified` runs after the
 * commit, only when this call made the change (notifications).
 */
export async function verifyControl(
  db: Db,
  id: number,
  target: ControlStatus,
  nowMicros: number,
  afterVerified?: (controlId: number) => Promise<void>,
) {
  let changed = false;
  const answer = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(controls).where(eq(controls.id, id)).for('update');
    if (!row) throw errors.notFound();
    if (target !== 'verified') {
      throw errors.field('status', 'A control can only be moved to "verified".');
    }
    let current = row;
    if (row.status === 'pending') {
      [current] = await tx
        .update(controls)
        .set({ status: 'verified', verifiedAt: formatMicros(nowMicros) })
        .where(eq(controls.id, id))
        .returning();
      changed = true;
    }
    const [first] = await tx
      .select({ cartId: controlCarts.cartId })
      .from(controlCarts)
      .where(eq(controlCarts.controlId, id))
      .orderBy(asc(controlCarts.cartId))
      .limit(1);
    const {
      id: controlId,
      created,
      verified_at,
      is_random,
      status,
      user,
    } = controlRecord(current, []);
    return {
      id: controlId,
      created,
      verified_at,
      is_random,
      status,
      user,
      cart: first?.cartId ?? null,
    };
  });
  if (changed) await afterVerified?.(id);
  return answer;
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
  const byControl = new Map<number, number[]>();
  for (const link of links) {
    const list = byControl.get(link.controlId) ?? [];
    list.push(link.cartId);
    byControl.set(link.controlId, list);
  }
  return rows.map((row) => controlRecord(row, byControl.get(row.id) ?? []));
}

/** A customer sees the controls of their own carts; staff and admins see all. */
export function controlsVisibleTo(user: AuthUser): SQL | undefined {
  return isStaff(user) ? undefined : eq(controls.userId, user.id);
}

function controlRecord(row: ControlRow, cartIds: number[]): Control {
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
