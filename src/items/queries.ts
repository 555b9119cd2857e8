import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { visibleTo } from '../carts/access.js';
import { formatDbTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import { carts, items } from '../db/schema.js';
import type { AuthUser } from '../http/auth.js';
import type { CartItem, ItemListQuery } from './schemas.js';

/** A line in the form of the API (the item answers, and a cart's `items`). */
export function itemRecord(row: typeof items.$inferSelect): CartItem {
  return {
    id: row.id,
    cart: row.cartId,
    part_number: row.partNumber,
    quantity: row.quantity,
    created: formatDbTimestamp(row.created) as string,
  };
}

/** The WHERE of the item list (items ⋈ carts): lines of the carts the user sees. */
export function itemFilter(user: AuthUser, query: ItemListQuery): SQL | undefined {
  return and(
    visibleTo(user),
    query.cart === undefined ? undefined : eq(items.cartId, Number(query.cart)),
  );
}

export async function countItems(db: Db, where: SQL | undefined): Promise<number> {
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(items)
    .innerJoin(carts, eq(carts.id, items.cartId))
    .where(where);
  return count;
}

/** One page of lines, oldest first. */
export async function listItems(
  db: Db,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<CartItem[]> {
  const rows = await db
    .select({ item: items })
    .from(items)
    .innerJoin(carts, eq(carts.id, items.cartId))
    .where(where)
    .orderBy(asc(items.created), asc(items.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => itemRecord(r.item));
}
