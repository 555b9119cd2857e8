import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { auditEventsPage } from '../audit/queries.js';
import { tombstone } from '../auth/users.js';
import { formatDbTimestamp, formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import {
  auditEvents,
  carts,
  checkouts,
  controlCarts,
  controls,
  idempotencyKeys,
  items,
  loginFailures,
  memberships,
  organizations,
  randomControlDraws,
  restoreCodes,
  shoppingListItems,
  shoppingLists,
  stores,
  users,
  wsCodes,
} from '../db/schema.js';
import { accountOf } from '../protections/keys.js';
import { endSessions } from '../protections/sessions.js';
import { AdminError, setRole } from './commands.js';
import { appendErasure, type ErasureRecord } from './erasure-journal.js';

/**
 * What the service holds about one person, and its erasure (docs/decisions/0009). The ERP
 * is the system of record for customers and orders; this covers the service's own tables.
 */

async function findUser(db: Db, username: string) {
  const [user] = await db.select().from(users).where(eq(users.username, username));
  if (!user) throw new AdminError(`unknown user ${JSON.stringify(username)}`);
  return user;
}

/** Everything held about `username` as one JSON-ready document. */
export async function exportUser(db: Db, username: string, nowIso: string) {
  const user = await findUser(db, username);
  const controller = alias(users, 'controller');
  const subject = alias(users, 'subject');

  const membershipRows = await db
    .select({
      organization_id: organizations.organizationId,
      code: organizations.code,
      name: organizations.name,
      favorite: memberships.favorite,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, user.id))
    .orderBy(asc(organizations.organizationId));

  const cartRows = await db
    .select({
      id: carts.id,
      created: carts.created,
      last_activity: carts.lastActivity,
      store: stores.gln,
      organization: organizations.organizationId,
      customer_order_number: carts.customerOrderNumber,
      order_mark: carts.orderMark,
      reference: carts.reference,
      items_count: carts.itemsCount,
      total_quantity: carts.totalQuantity,
      checked_out: carts.checkedOut,
      checkout_availability_error: carts.checkoutAvailabilityError,
    })
    .from(carts)
    .innerJoin(organizations, eq(organizations.id, carts.organizationId))
    .leftJoin(stores, eq(stores.id, carts.storeId))
    .where(eq(carts.userId, user.id))
    .orderBy(asc(carts.id));
  const cartIds = cartRows.map((c) => c.id);
  const lineRows = cartIds.length
    ? await db
        .select({
          id: items.id,
          cart: items.cartId,
          part_number: items.partNumber,
          quantity: items.quantity,
          created: items.created,
        })
        .from(items)
        .where(inArray(items.cartId, cartIds))
        .orderBy(asc(items.id))
    : [];
  const checkoutRows = cartIds.length
    ? await db
        .select({
          cart: checkouts.cartId,
          created: checkouts.created,
          order_id: checkouts.orderId,
          order_number: checkouts.orderNumber,
          timed_out: checkouts.timedOut,
        })
        .from(checkouts)
        .where(inArray(checkouts.cartId, cartIds))
    : [];

  const controlRows = await db
    .select({
      id: controls.id,
      created: controls.created,
      status: controls.status,
      verified_at: controls.verifiedAt,
      is_random: controls.isRandom,
      store: stores.gln,
      user: subject.username,
      controller: controller.username,
      userId: controls.userId,
    })
    .from(controls)
    .innerJoin(stores, eq(stores.id, controls.storeId))
    .innerJoin(subject, eq(subject.id, controls.userId))
    .leftJoin(controller, eq(controller.id, controls.controllerId))
    .where(or(eq(controls.userId, user.id), eq(controls.controllerId, user.id)))
    .orderBy(asc(controls.id));
  const links = controlRows.length
    ? await db
        .select()
        .from(controlCarts)
        .where(
          inArray(
            controlCarts.controlId,
            controlRows.map((c) => c.id),
          ),
        )
        .orderBy(asc(controlCarts.cartId))
    : [];
  const control = ({ userId: _, ...row }: (typeof controlRows)[number]) => ({
    ...row,
    carts: links.filter((l) => l.controlId === row.id).map((l) => l.cartId),
  });

  const listRows = await db
    .select({
      id: shoppingLists.id,
      name: shoppingLists.name,
      cart: shoppingLists.cartId,
      created: shoppingLists.created,
    })
    .from(shoppingLists)
    .where(eq(shoppingLists.userId, user.id))
    .orderBy(asc(shoppingLists.id));
  const listItemRows = listRows.length
    ? await db
        .select({
          id: shoppingListItems.id,
          list: shoppingListItems.shoppingListId,
          name: shoppingListItems.name,
          quantity: shoppingListItems.quantity,
          scanned: shoppingListItems.scanned,
          created: shoppingListItems.created,
        })
        .from(shoppingListItems)
        .where(
          inArray(
            shoppingListItems.shoppingListId,
            listRows.map((l) => l.id),
          ),
        )
        .orderBy(asc(shoppingListItems.id))
    : [];

  // Metadata only: a code's hash is a secret's, whatever its age.
  const codeRows = await db
    .select({
      variant: restoreCodes.variant,
      created: restoreCodes.created,
      expires_at: restoreCodes.expiresAt,
      used_at: restoreCodes.usedAt,
    })
    .from(restoreCodes)
    .where(eq(restoreCodes.username, user.username))
    .orderBy(asc(restoreCodes.id));
  const drawRows = await db
    .select({ store: stores.gln, day: randomControlDraws.day })
    .from(randomControlDraws)
    .innerJoin(stores, eq(stores.id, randomControlDraws.storeId))
    .where(eq(randomControlDraws.userId, user.id))
    .orderBy(asc(randomControlDraws.day));
  // The key and what it was used for; the stored answer repeats the cart or line above.
  const keyRows = await db
    .select({
      key: idempotencyKeys.key,
      operation: idempotencyKeys.operation,
      status: idempotencyKeys.status,
      created: idempotencyKeys.created,
    })
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.userId, user.id))
    .orderBy(asc(idempotencyKeys.created));

  // The audit trail's events about the person and by them, in the API's form.
  const auditRows = await auditEventsPage(
    db,
    or(eq(auditEvents.userId, user.id), eq(auditEvents.actorId, user.id)),
    asc,
    { names: false },
  ).rows(1_000_000, 0);

  return {
    exported_at: nowIso,
    user: {
      id: user.id,
      username: user.username,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      telephone: user.telephone,
      reference: user.reference,
      is_staff: user.isStaff,
      is_admin: user.isAdmin,
      created: user.created,
      last_login: user.lastLogin,
    },
    memberships: membershipRows,
    favorites: membershipRows.filter((m) => m.favorite).map((m) => m.organization_id),
    carts: cartRows.map((cart) => {
      const found = checkoutRows.find((c) => c.cart === cart.id);
      return {
        ...cart,
        lines: lineRows.filter((l) => l.cart === cart.id).map(({ cart: _, ...line }) => line),
        checkout: found ? { ...found, cart: undefined } : null,
      };
    }),
    controls_about_user: controlRows.filter((c) => c.userId === user.id).map(control),
    controls_by_user: controlRows.filter((c) => c.userId !== user.id).map(control),
    shopping_lists: listRows.map((list) => ({
      ...list,
      items: listItemRows.filter((i) => i.list === list.id).map(({ list: _, ...item }) => item),
    })),
    restore_codes: codeRows,
    random_control_draws: drawRows,
    idempotency_keys: keyRows,
    audit_events: auditRows,
  };
}

export interface Erasure {
  id: number;
  tombstone: string;
  shoppingLists: number;
  carts: number;
}

type UserRow = typeof users.$inferSelect;

/**
 * Erases a user in one transaction: the profile's personal fields emptied, the row marked
 * erased (no login matches it again: src/auth/users.ts) and the username replaced by a
 * tombstone, every session ended, roles taken away (each with its audit event),
 * memberships, shopping lists, restore codes, notification codes and idempotency answers
 * deleted; carts, lines, checkout records and controls kept for bookkeeping and for the
 * statistics, owned by the tombstone, with the free-text mark and reference of each cart
 * emptied. Counted cart columns are not touched: the rollups stay exact. With `journal`,
 * the erasure is recorded there (src/admin/erasure-journal.ts) before it commits, so that
 * a restore of an older backup applies it again; a journal that cannot be written leaves
 * the user as they were.
 */
export async function eraseUser(
  db: Db,
  username: string,
  options: { nowMicros: number; journal?: string },
): Promise<Erasure> {
  return db.transaction(async (tx) => {
    const user = await findUser(tx, username);
    if (user.erasedAt !== null) throw new AdminError(`${username} is already erased`);
    const done = await eraseRow(tx, user, options.nowMicros);
    if (options.journal) {
      appendErasure(options.journal, {
        id: user.id,
        created: formatDbTimestamp(user.created) as string,
        erased_at: formatMicros(options.nowMicros),
      });
    }
    return done;
  });
}

/** What a replay of the journal did: erased again, found erased, or not in this database. */
export interface Replay {
  erased: number;
  alreadyErased: number;
  absent: number;
}

/**
 * Applies the journal's erasures again (after a restore): each to the row with the record's
 * id and creation time, unless already erased. A row with the id but another creation time
 * is someone else (ids are re-used after restoring an older backup) and is left alone.
 */
export async function reapplyErasures(
  db: Db,
  records: ErasureRecord[],
  nowMicros: number,
): Promise<Replay> {
  const result: Replay = { erased: 0, alreadyErased: 0, absent: 0 };
  for (const record of records) {
    await db.transaction(async (tx) => {
      const [user] = await tx
        .select()
        .from(users)
        .where(and(eq(users.id, record.id), eq(users.created, record.created)))
        .for('update');
      if (!user) result.absent += 1;
      else if (user.erasedAt !== null) result.alreadyErased += 1;
      else {
        await eraseRow(tx, user, nowMicros);
        result.erased += 1;
      }
    });
  }
  return result;
}

async function eraseRow(tx: Db, user: UserRow, nowMicros: number): Promise<Erasure> {
  const name = tombstone(user.id);
  // Every token and unused WebSocket code of the person dies with the erasure.
  await endSessions(tx, user.id);
  // Roles go through the one place that records their change in the audit trail.
  await setRole(tx, user.id, 'staff', false, nowMicros);
  await setRole(tx, user.id, 'admin', false, nowMicros);
  await tx
    .update(users)
    .set({
      username: name,
      email: '',
      firstName: '',
      lastName: '',
      telephone: '',
      reference: null,
      lastLogin: null,
      erasedAt: formatMicros(nowMicros),
    })
    .where(eq(users.id, user.id));
  await tx.delete(memberships).where(eq(memberships.userId, user.id));
  const lists = await tx
    .delete(shoppingLists)
    .where(eq(shoppingLists.userId, user.id))
    .returning({ id: shoppingLists.id });
  await tx.delete(restoreCodes).where(eq(restoreCodes.username, user.username));
  // The daily counts of failed logins are keyed by the username.
  await tx.delete(loginFailures).where(eq(loginFailures.account, accountOf(user.username)));
  await tx.delete(wsCodes).where(eq(wsCodes.userId, user.id));
  await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, user.id));
  const kept = await tx
    .update(carts)
    .set({ orderMark: '', reference: null })
    .where(eq(carts.userId, user.id))
    .returning({ id: carts.id });
  return { id: user.id, tombstone: name, shoppingLists: lists.length, carts: kept.length };
}
