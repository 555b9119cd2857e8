import { and, eq } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { carts, shoppingListItems, shoppingLists } from '../db/schema.js';
import { Invalid, NotFound } from '../errors.js';
import { findList, itemOwnedBy, ownedBy, shoppingListItemRecord } from './queries.js';
import type {
  ShoppingList,
  ShoppingListItem,
  ShoppingListItemCreateBody,
  ShoppingListItemUpdateBody,
  ShoppingListUpdateBody,
} from './schemas.js';

const MAX_ID = 2_147_483_647;

/** DRF's answer for a related id that does not exist or is not the caller's. */
const noSuchObject = (what: 'cart' | 'shopping_list', id: number) =>
  new NotFound(what, `Invalid pk "${id}" - object does not exist.`);

/** A name as stored: trimmed, and not blank once trimmed (the schema checks the length). */
function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw Invalid.field('name', 'This field may not be blank.');
  return trimmed;
}

const cleanOptionalName = (name: string | undefined) =>
  name === undefined ? undefined : cleanName(name);

/**
 * Locks the user's own row (KEY SHARE: it cannot be deleted until the transaction ends, so
 * the reference written next never meets a vanished row); NotFound of `what` otherwise.
 */
async function lockOwn(
  tx: Tx,
  what: 'cart' | 'shopping_list',
  userId: number,
  id: number,
): Promise<void> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw noSuchObject(what, id);
  const table = what === 'cart' ? carts : shoppingLists;
  const [row] = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.id, id), eq(table.userId, userId)))
    .for('key share');
  if (!row) throw noSuchObject(what, id);
}

/** Creates a list for the user; answers its id. */
export async function createList(
  db: Db,
  userId: number,
  body: { name: string },
  nowMicros: number,
): Promise<number> {
  const name = cleanName(body.name);
  const [row] = await db
    .insert(shoppingLists)
    .values({ userId, name, created: formatMicros(nowMicros) })
    .returning({ id: shoppingLists.id });
  return row.id;
}

/**
 * Renames and/or links (a cart id of the user's) or unlinks (null) a cart; answers the list
 * as it now stands. NotFound('shopping_list') when not the user's list; NotFound('cart') for
 * a cart that is not theirs.
 */
export async function updateList(
  db: Db,
  userId: number,
  id: number,
  body: ShoppingListUpdateBody,
): Promise<ShoppingList> {
  const name = cleanOptionalName(body.name);
  const { cart } = body;
  await db.transaction(async (tx) => {
    const [list] = await tx
      .select({ id: shoppingLists.id })
      .from(shoppingLists)
      .where(and(ownedBy(userId), eq(shoppingLists.id, id)))
      .for('update');
    if (!list) throw new NotFound('shopping_list');
    if (typeof cart === 'number') await lockOwn(tx, 'cart', userId, cart);
    const set: Partial<typeof shoppingLists.$inferInsert> = {};
    if (name !== undefined) set.name = name;
    if (cart !== undefined) set.cartId = cart;
    if (Object.keys(set).length > 0) {
      await tx.update(shoppingLists).set(set).where(eq(shoppingLists.id, id));
    }
  });
  // Deleted between the change and the read: it is gone for the client too (NotFound).
  return findList(db, userId, id);
}

/** Deletes the user's list; its items go with it (ON DELETE CASCADE). */
export async function deleteList(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(shoppingLists)
    .where(and(ownedBy(userId), eq(shoppingLists.id, id)))
    .returning({ id: shoppingLists.id });
  if (deleted.length === 0) throw new NotFound('shopping_list');
}

/** Adds an item to one of the user's lists; NotFound('shopping_list') for another list. */
export async function createItem(
  db: Db,
  userId: number,
  body: ShoppingListItemCreateBody,
  nowMicros: number,
): Promise<ShoppingListItem> {
  const name = cleanName(body.name);
  return db.transaction(async (tx) => {
    await lockOwn(tx, 'shopping_list', userId, body.shopping_list);
    const [row] = await tx
      .insert(shoppingListItems)
      .values({
        shoppingListId: body.shopping_list,
        name,
        quantity: body.quantity,
        scanned: body.scanned ?? false,
        created: formatMicros(nowMicros),
      })
      .returning();
    return shoppingListItemRecord(row);
  });
}

/** Changes name, quantity and/or scanned of the user's item; NotFound when not theirs. */
export async function updateItem(
  db: Db,
  userId: number,
  id: number,
  body: ShoppingListItemUpdateBody,
): Promise<ShoppingListItem> {
  const changes = {
    name: cleanOptionalName(body.name),
    quantity: body.quantity,
    scanned: body.scanned,
  };
  const where = and(eq(shoppingListItems.id, id), itemOwnedBy(db, userId));
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const [row] =
    Object.keys(set).length > 0
      ? await db.update(shoppingListItems).set(set).where(where).returning()
      : await db.select().from(shoppingListItems).where(where);
  if (!row) throw new NotFound('shopping_list_item');
  return shoppingListItemRecord(row);
}

export async function deleteItem(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(shoppingListItems)
    .where(and(eq(shoppingListItems.id, id), itemOwnedBy(db, userId)))
    .returning({ id: shoppingListItems.id });
  if (deleted.length === 0) throw new NotFound('shopping_list_item');
}
