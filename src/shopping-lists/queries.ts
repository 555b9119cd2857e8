import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { formatDbTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import { shoppingListItems, shoppingLists } from '../db/schema.js';
import { isTrue, parseOrdering } from '../http/query.js';
import type { ORDERING_KEYS, ShoppingList, ShoppingListItem } from './schemas.js';

type ListRow = typeof shoppingLists.$inferSelect;
type ItemRow = typeof shoppingListItems.$inferSelect;

const ts = (value: string) => formatDbTimestamp(value) as string;

export function itemRecord(row: ItemRow): Static<typeof ShoppingListItem> {
  return {
    id: row.id,
    name: row.name,
    quantity: row.quantity,
    scanned: row.scanned,
    created: ts(row.created),
  };
}

/** Shopping lists are personal: nobody, staff and admins included, sees another's. */
export const ownedBy = (userId: number) => eq(shoppingLists.userId, userId);

/** `to_ckeckin=True`: no cart and at least one item; `False`: exactly the other lists. */
export function listFilter(userId: number, query: { to_ckeckin?: string }): SQL | undefined {
  const toCheckin = isTrue(query.to_ckeckin);
  if (toCheckin === undefined) return ownedBy(userId);
  const ready = sql`(${shoppingLists.cartId} is null and exists (select 1 from ${shoppingListItems}
    where ${shoppingListItems.shoppingListId} = ${shoppingLists.id}))`;
  return and(ownedBy(userId), toCheckin ? ready : sql`not ${ready}`);
}

export async function countLists(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(shoppingLists)
    .where(where);
  return row.count;
}

const ORDER_COLUMNS = { created: shoppingLists.created, name: shoppingLists.name } as const;

/** One page of lists with their items: two queries whatever the page holds. */
export async function listLists(
  db: Db,
  where: SQL | undefined,
  ordering: string | undefined,
  limit: number,
  offset: number,
): Promise<Static<typeof ShoppingList>[]> {
  const { key, descending } = parseOrdering<(typeof ORDERING_KEYS)[number]>(ordering, '-created');
  const direction = descending ? desc : asc;
  const rows = await db
    .select()
    .from(shoppingLists)
    .where(where)
    .orderBy(direction(ORDER_COLUMNS[key]), direction(shoppingLists.id))
    .limit(limit)
    .offset(offset);
  return withItems(db, rows);
}

/** The user's list in its full form, or undefined (also for another user's list). */
export async function findList(db: Db, userId: number, id: number) {
  const rows = await db
    .select()
    .from(shoppingLists)
    .where(and(ownedBy(userId), eq(shoppingLists.id, id)));
  const [list] = await withItems(db, rows);
  return list;
}

async function withItems(db: Db, rows: ListRow[]): Promise<Static<typeof ShoppingList>[]> {
  const ids = rows.map((r) => r.id);
  const itemRows =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(shoppingListItems)
          .where(inArray(shoppingListItems.shoppingListId, ids))
          .orderBy(asc(shoppingListItems.created), asc(shoppingListItems.id));
  const byList = new Map<number, ItemRow[]>();
  for (const item of itemRows) {
    const list = byList.get(item.shoppingListId);
    if (list) list.push(item);
    else byList.set(item.shoppingListId, [item]);
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    items: (byList.get(row.id) ?? []).map(itemRecord),
    created: ts(row.created),
  }));
}
