import { and, eq, inArray } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { carts, shoppingListItems, shoppingLists } from '../db/schema.js';
import { errors } from '../http/errors.js';
import { ownedBy } from './queries.js';

const MAX_ID = 2_147_483_647;

/** DRF's answer for a related id that does not exist or is not the caller's. */
const noSuchObject = (field: string, id: number) =>
  errors.field(field, `Invalid pk "${id}" - object does not exist.`);

/** A name as stored: trimmed, and not blank once trimmed (the schema checks the length). */
export function cleanName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (trimmed === '') throw errors.field(field, 'This field may not be blank.');
  return trimmed;
}

/**
 * Locks the user's own row (KEY SHARE: it cannot be deleted until the transaction ends, so
 * the reference written next never meets a vanished row); a 400 on `field` otherwise.
 */
async function lockOwn(
  tx: Tx,
  table: typeof carts | typeof shoppingLists,
  userId: number,
  id: number,
  field: string,
): Promise<void> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw noSuchObject(field, id);
  const [row] = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.id, id), eq(table.userId, userId)))
    .for('key share');
  if (!row) throw noSuchObject(field, id);
}

export async function createList(db: Db, userId: number, name: string, nowMicros: number) {
  const [row] = await db
    .insert(shoppingLists)
    .values({ userId, name, created: formatMicros(nowMicros) })
    .returning({ id: shoppingLists.id });
  return row.id;
}

/** Renames and/or links (a cart id) or unlinks (null) a cart; 404 when not the user's list. */
export async function updateList(
  db: Db,
  userId: number,
  id: number,
  changes: { name?: string; cart?: number | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [list] = await tx
      .select({ id: shoppingLists.id })
      .from(shoppingLists)
      .where(and(ownedBy(userId), eq(shoppingLists.id, id)))
      .for('update');
    if (!list) throw errors.notFound();
    if (typeof changes.cart === 'number') await lockOwn(tx, carts, userId, changes.cart, 'cart');
    const set: Partial<typeof shoppingLists.$inferInsert> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.cart !== undefined) set.cartId = changes.cart;
    if (Object.keys(set).length > 0) {
      await tx.update(shoppingLists).set(set).where(eq(shoppingLists.id, id));
    }
  });
}

/** Deletes the user's list; its items go with it (ON DELETE CASCADE). */
export async function deleteList(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(shoppingLists)
    .where(and(ownedBy(userId), eq(shoppingLists.id, id)))
    .returning({ id: shoppingLists.id });
  if (deleted.length === 0) throw errors.notFound();
}

export async function createItem(
  db: Db,
  userId: number,
  fields: { shoppingListId: number; name: string; quantity: number; scanned: boolean },
  nowMicros: number,
) {
  return db.transaction(async (tx) => {
    await lockOwn(tx, shoppingLists, userId, fields.shoppingListId, 'shopping_list');
    const [row] = await tx
      .insert(shoppingListItems)
      .values({ ...fields, created: formatMicros(nowMicros) })
      .returning();
    return row;
  });
}

/** Items of the user's lists: a subquery, so check and change are one statement. */
export const itemOwnedBy = (db: Db, userId: number) =>
  inArray(
    shoppingListItems.shoppingListId,
    db.select({ id: shoppingLists.id }).from(shoppingLists).where(ownedBy(userId)),
  );

/** Changes name, quantity and/or scanned of the user's item; 404 when not theirs. */
export async function updateItem(
  db: Db,
  userId: number,
  id: number,
  changes: { name?: string; quantity?: number; scanned?: boolean },
) {
  const where = and(eq(shoppingListItems.id, id), itemOwnedBy(db, userId));
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const [row] =
    Object.keys(set).length > 0
      ? await db.update(shoppingListItems).set(set).where(where).returning()
      : await db.select().from(shoppingListItems).where(where);
  if (!row) throw errors.notFound();
  return row;
}

export async function deleteItem(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(shoppingListItems)
    .where(and(eq(shoppingListItems.id, id), itemOwnedBy(db, userId)))
    .returning({ id: shoppingListItems.id });
  if (deleted.length === 0) throw errors.notFound();
}
