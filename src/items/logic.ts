import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { formatMicros } from '../clock.js';
import type { Database, Db, Tx } from '../db/client.js';
import { isOutOfRange } from '../db/errors.js';
import { carts, items } from '../db/schema.js';
import { iso, type Run, statement } from '../db/statement.js';
import { CartClosed, CheckoutInProgress, Invalid, NotFound } from '../errors.js';
import { type AuthUser, writeWithCaller } from '../http/auth.js';
import { itemRecord } from './queries.js';
import { type CartItem, MAX_CART_QUANTITY, MAX_QUANTITY } from './schemas.js';

/**
 * A cart's `total_quantity` is a 32-bit integer: a change past it fails as a whole
 * (SQLSTATE 22003, nothing written) and is the client's 400 on `quantity`, not a 500.
 */
async function withinCartTotal<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (isOutOfRange(error)) {
      throw Invalid.field(
        'quantity',
        `The cart would hold more than ${MAX_CART_QUANTITY} items in all.`,
      );
    }
    throw error;
  }
}

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
 * One statement (one verified transaction): lock the owner's cart, add the line or merge
 * the quantity into the line of the same part number, keep the cart's counters and last
 * activity. The cart row lock serializes concurrent adds to a cart; the unique
 * (cart, part_number) index and the upsert make a second line impossible even without it.
 * ON CONFLICT and UPDATE act on the newest row versions, so a statement that waited for the
 * lock still counts what the one before it committed.
 */
export const ADD_ITEM = statement(
  `with cart as (
    select id, checked_out, checkout_frozen from carts where id = $1 and user_id = $2 for update
  ), line as (
    insert into items (cart_id, part_number, quantity, created)
    select id, $3, $4, $5 from cart where not checked_out and not checkout_frozen
    on conflict (cart_id, part_number) do update set quantity = items.quantity + excluded.quantity
      where items.quantity + excluded.quantity <= ${MAX_QUANTITY}
    returning id, cart_id, part_number, quantity, created, xmax = 0 as inserted
  ), touched as (
    update carts set items_count = items_count + case when line.inserted then 1 else 0 end,
      total_quantity = total_quantity + $4, last_activity = $5
    from line where carts.id = line.cart_id
  )
  select cart.checked_out, cart.checkout_frozen, line.id, line.cart_id, line.part_number,
    line.quantity, ${iso('line.created')} as created
  from cart left join line on true`,
  // Behind a pooler (migration 0019: the same text, its plan kept per server connection).
  { pooled: 'select * from add_item($1, $2, $3, $4, $5)' },
);

interface AddedRow extends Omit<CartItem, 'cart'> {
  cart_id: number;
  checked_out: boolean;
  checkout_frozen: boolean;
}

/**
 * Behind a pooler, the add with its caller's look-up (migration 0027): the caller's id,
 * username and session generation first, then ADD_ITEM's values; the line's id is `item_id`.
 */
export const ADD_ITEM_AS = 'select * from add_item_as($1, $2, $3, $4, $5, $6, $7)';

/** The add's columns of `add_item_as`: all null when the cart is not there or not theirs. */
type AddedAsRow = Omit<AddedRow, 'id' | 'checked_out'> & {
  item_id: number | null;
  checked_out: boolean | null;
};

/**
 * Adds a line, or merges the quantity into the line of the same part number (surrounding
 * blanks are not part of it). Answers the line as it now stands.
 */
export async function addItem(
  run: Run,
  user: AuthUser,
  cartId: number,
  givenPartNumber: string,
  quantity: number,
  nowMicros: number,
): Promise<CartItem> {
  const partNumber = givenPartNumber.trim();
  if (partNumber === '') throw Invalid.field('part_number', 'This field may not be blank.');
  const values = [cartId, user.id, partNumber, quantity, formatMicros(nowMicros)];
  const [row] = await withinCartTotal(() => run<AddedRow>(ADD_ITEM, values));
  return addedLine(row, cartId);
}

/**
 * addItem behind a pooler where the caller is still to be looked up (`callerInRead`): the
 * look-up and the add in one call, in the add's verified transaction, writing nothing for a
 * caller the service refuses. Null where the caller was looked up already: addItem then.
 */
export async function addItemWithCaller(
  request: FastifyRequest,
  database: Database,
  cartId: number,
  givenPartNumber: string,
  quantity: number,
  nowMicros: number,
): Promise<CartItem | null> {
  // Looked up already (a direct connection, PGlite): nothing to build here.
  if (!request.pendingCaller) return null;
  // A blank part number is refused after the caller is judged, as on a direct connection.
  const partNumber = givenPartNumber.trim();
  if (partNumber === '') return null;
  const values = [cartId, partNumber, quantity, formatMicros(nowMicros)];
  const both = await withinCartTotal(() =>
    writeWithCaller<AddedAsRow>(request, database, ADD_ITEM_AS, values, { verified: true }),
  );
  if (!both) return null;
  const { item_id, checked_out, ...rest } = both.row;
  return addedLine(
    checked_out === null ? undefined : { ...rest, checked_out, id: item_id },
    cartId,
  );
}

/** The line an add answered, or its refusal. */
function addedLine(
  row: (Omit<AddedRow, 'id'> & { id: number | null }) | undefined,
  cartId: number,
): CartItem {
  if (!row) throw new NotFound('cart', `Invalid pk "${cartId}" - object does not exist.`);
  if (row.checked_out) throw new CartClosed();
  if (row.checkout_frozen) throw new CheckoutInProgress();
  if (row.id === null) {
    throw Invalid.field('quantity', `The line would hold more than ${MAX_QUANTITY} of this part.`);
  }
  return {
    id: row.id,
    cart: row.cart_id,
    part_number: row.part_number,
    quantity: row.quantity,
    created: row.created,
  };
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
  return withinCartTotal(() =>
    db.transaction(async (tx) => {
      const item = await lockItem(tx, user, itemId);
      const [row] = await tx
        .update(items)
        .set({ quantity })
        .where(eq(items.id, itemId))
        .returning();
      await touchCart(tx, item.cartId, 0, quantity - item.quantity, now);
      return itemRecord(row);
    }),
  );
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
