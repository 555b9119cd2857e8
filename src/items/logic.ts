import { and, eq, sql } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { carts, items } from '../db/schema.js';
import { CartClosed, CheckoutInProgress, Invalid, NotFound } from '../errors.js';
import type { AuthUser } from '../http/auth.js';
import { itemRecord } from './queries.js';
import { type CartItem, MAX_QUANTITY } from './schemas.js';

/**
 * Locks the user's cart for an item change. Only the owner changes a cart's lines; a
 * checked-out cart is closed and a cart in checkout is frozen.
 */
async function lockOwnCart(tx: Tx, user: AuthUser, cartId: number) {
  const [cart] = await tx
    .select({ checkedOut: carts.checkedOut, frozen: carts.checkoutFrozen })
    .from(carts)
    .where(and(eq(carts.id, cartId), eq(carts.userId, user.id)))
    .for('update');
  if (!cart) throw new NotFound('cart', `Invalid pk "${cartId}" - object does not exist.`);
  if (cart.checkedOut) throw new CartClosed();
  if (cart.frozen) throw new CheckoutInProgress();
}

/** Keeps the cart's counters and last activity in step with its lines. */
async function touchCart(tx: Tx, cartId: number, lines: number, quantity: number, now: string) {
  await tx
    .update(carts)
    .set({
      itemsCount: sql`${carts.itemsCount} + ${lines}`,
      totalQuantity: sql`${carts.totalQuantity} + ${quantity}`,
      lastActivity: now,
    })
    .where(eq(carts.id, cartId));
}

/**
 * Adds a line, or merges the quantity into the line of the same part number (surrounding
 * blanks are not part of it). The cart row lock serializes concurrent adds to a cart; the
 * unique (cart, part_number) index and the upsert make a second line impossible even
 * without it. Answers the line as it now stands.
 */
export async function addItem(
  db: Db,
  user: AuthUser,
  cartId: number,
  givenPartNumber: string,
  quantity: number,
  nowMicros: number,
): Promise<CartItem> {
  const partNumber = givenPartNumber.trim();
  if (partNumber === '') throw Invalid.field('part_number', 'This field may not be blank.');
  const now = formatMicros(nowMicros);
  return db.transaction(async (tx) => {
    await lockOwnCart(tx, user, cartId);
    const [line] = await tx
      .insert(items)
      .values({ cartId, partNumber, quantity, created: now })
      .onConflictDoUpdate({
        target: [items.cartId, items.partNumber],
        set: { quantity: sql`${items.quantity} + excluded.quantity` },
        setWhere: sql`${items.quantity} + excluded.quantity <= ${MAX_QUANTITY}`,
      })
      .returning({
        id: items.id,
        cartId: items.cartId,
        partNumber: items.partNumber,
        quantity: items.quantity,
        created: items.created,
        inserted: sql<boolean>`xmax = 0`,
      });
    if (!line) {
      throw Invalid.field(
        'quantity',
        `The line would hold more than ${MAX_QUANTITY} of this part.`,
      );
    }
    const { inserted, ...row } = line;
    await touchCart(tx, cartId, inserted ? 1 : 0, quantity, now);
    return itemRecord(row);
  });
}

async function lockItem(tx: Tx, user: AuthUser, itemId: number) {
  const [item] = await tx
    .select({ cartId: items.cartId, quantity: items.quantity })
    .from(items)
    .innerJoin(carts, eq(carts.id, items.cartId))
    .where(and(eq(items.id, itemId), eq(carts.userId, user.id)));
  if (!item) throw new NotFound('item');
  await lockOwnCart(tx, user, item.cartId);
  // Read again under the cart lock: a concurrent change may have come first.
  const [current] = await tx.select().from(items).where(eq(items.id, itemId));
  if (!current) throw new NotFound('item');
  return current;
}

export async function setItemQuantity(
  db: Db,
  user: AuthUser,
  itemId: number,
  quantity: number,
  nowMicros: number,
): Promise<CartItem> {
  const now = formatMicros(nowMicros);
  return db.transaction(async (tx) => {
    const item = await lockItem(tx, user, itemId);
    const [row] = await tx.update(items).set({ quantity }).where(eq(items.id, itemId)).returning();
    await touchCart(tx, item.cartId, 0, quantity - item.quantity, now);
    return itemRecord(row);
  });
}

export async function deleteItem(
  db: Db,
  user: AuthUser,
  itemId: number,
  nowMicros: number,
): Promise<void> {
  const now = formatMicros(nowMicros);
  await db.transaction(async (tx) => {
    const item = await lockItem(tx, user, itemId);
    await tx.delete(items).where(eq(items.id, itemId));
    await touchCart(tx, item.cartId, -1, -item.quantity, now);
  });
}
