import { and, asc, eq, or } from 'drizzle-orm';
import { recordAudit } from '../audit/logic.js';
import { activeAt } from '../carts/access.js';
import { formatDbTimestamp, formatMicros } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { carts, controlCarts, controlOutcomes, controls, stores, users } from '../db/schema.js';
import { Invalid, NotFound } from '../errors.js';
import type { AppPublisher } from '../events/app-events.js';
import { controlRecord } from './queries.js';
import type { Control, ControlCreateBody, ControlStatus, ControlUpdated } from './schemas.js';

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

/**
 * POST controls/: an admin controls the active carts of `user` in `store`. Publishes
 * `control.created` once it has committed.
 */
export async function createControl(
  db: Db,
  events: AppPublisher,
  admin: { id: number },
  body: ControlCreateBody,
  nowMicros: number,
): Promise<Control> {
  const control = await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, body.user));
    const [store] = await tx
      .select({ id: stores.id })
      .from(stores)
      .where(eq(stores.id, body.store));
    const fieldErrors: Record<string, string[]> = {};
    if (!user) fieldErrors.user = [`Invalid pk "${body.user}" - object does not exist.`];
    if (!store) fieldErrors.store = [`Invalid pk "${body.store}" - object does not exist.`];
    if (Object.keys(fieldErrors).length > 0) throw new Invalid(fieldErrors);
    const created = await insertControl(
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
    if (!created) throw Invalid.nonField('The user has no active cart in this store.');
    await recordAudit(
      tx,
      {
        kind: 'control.created',
        via: 'api',
        actorId: admin.id,
        storeId: created.store,
        userId: created.user,
        objectId: created.id,
        after: { status: created.status, carts: created.carts, is_random: false },
      },
      nowMicros,
    );
    return created;
  });
  await events.publish('control.created', { control });
  return control;
}

/**
 * PATCH controls/{id}/: only pending → verified. Verifying a verified control changes
 * nothing (a retried request must not move `verified_at`). Publishes `control.verified`
 * after the commit, only when this call made the change. Answers the update form.
 */
export async function verifyControl(
  db: Db,
  events: AppPublisher,
  admin: { id: number },
  id: number,
  target: ControlStatus,
  nowMicros: number,
): Promise<ControlUpdated> {
  const { control, changed } = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(controls).where(eq(controls.id, id)).for('update');
    if (!row) throw new NotFound('control');
    if (target !== 'verified') {
      throw Invalid.field('status', 'A control can only be moved to "verified".');
    }
    let current = row;
    let changed = false;
    if (row.status === 'pending') {
      [current] = await tx
        .update(controls)
        .set({ status: 'verified', verifiedAt: formatMicros(nowMicros) })
        .where(eq(controls.id, id))
        .returning();
      changed = true;
      await recordAudit(
        tx,
        {
          kind: 'control.verified',
          via: 'api',
          actorId: admin.id,
          storeId: row.storeId,
          userId: row.userId,
          objectId: row.id,
          before: { status: 'pending', verified_at: null },
          after: { status: 'verified', verified_at: formatMicros(nowMicros) },
        },
        nowMicros,
      );
    }
    const links = await tx
      .select({ cartId: controlCarts.cartId })
      .from(controlCarts)
      .where(eq(controlCarts.controlId, id))
      .orderBy(asc(controlCarts.cartId));
    const cartIds = links.map((l) => l.cartId);
    return { control: controlRecord(current, cartIds), changed };
  });
  if (changed) await events.publish('control.verified', { control });
  const { id: controlId, created, verified_at, is_random, status, user } = control;
  return {
    id: controlId,
    created,
    verified_at,
    is_random,
    status,
    user,
    cart: control.carts[0] ?? null,
  };
}

/**
 * DELETE controls/{id}/: an admin rejects a pending control (drawn or created by mistake, or
 * not to be carried out). The contract knows only `pending` and `verified`, so a rejected
 * control is not kept; a verified one is a record of a check made and stays (400).
 */
export async function rejectControl(
  db: Db,
  admin: { id: number },
  id: number,
  nowMicros: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(controls).where(eq(controls.id, id)).for('update');
    if (!row) throw new NotFound('control');
    if (row.status !== 'pending') {
      throw Invalid.nonField('A verified control cannot be rejected.');
    }
    const links = await tx
      .select({ cartId: controlCarts.cartId })
      .from(controlCarts)
      .where(eq(controlCarts.controlId, id))
      .orderBy(asc(controlCarts.cartId));
    await tx.delete(controls).where(eq(controls.id, id));
    // The figures keep it, as rejected (its day's row follows: drizzle/0020_control_days.sql).
    await tx
      .update(controlOutcomes)
      .set({ outcome: 'rejected' })
      .where(eq(controlOutcomes.controlId, id));
    // The control is gone; the trail keeps what it was and who let the customer go unchecked.
    await recordAudit(
      tx,
      {
        kind: 'control.rejected',
        via: 'api',
        actorId: admin.id,
        storeId: row.storeId,
        userId: row.userId,
        objectId: row.id,
        before: {
          status: 'pending',
          created: formatDbTimestamp(row.created),
          is_random: row.isRandom,
          controller: row.controllerId,
          carts: links.map((l) => l.cartId),
        },
        after: null,
      },
      nowMicros,
    );
  });
}
