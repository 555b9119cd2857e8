import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { formatDbTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import { groupBy, type PageSource, tablePage } from '../db/pages.js';
import { shoppingListItems, shoppingLists } from '../db/schema.js';
import { NotFound } from '../errors.js';
import { isTrue, parseOrdering } from '../http/query.js';
import type {
  ORDERING_KEYS,
  ShoppingList,
  ShoppingListItem,
  ShoppingListQuery,
} from './schemas.js';

type ListRow = typeof shoppingLists.$inferSelect;
type ItemRow = typeof shoppingListItems.$inferSelect;

const ts = (value: string) => formatDbTimestamp(value) as string;

/** An item of a shopping list as the API shows it (not a cart's item: src/items/). */
export function shoppingListItemRecord(row: ItemRow): ShoppingListItem {
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

/** Items of the user's lists: a subquery, so check and change are one statement. */
export const itemOwnedBy = (db: Db, userId: number) =>
  inArray(
    shoppingListItems.shoppingListId,
    db.select({ id: shoppingLists.id }).from(shoppingLists).where(ownedBy(userId)),
  );

/** `to_ckeckin=True`: no cart and at least one item; `False`: exactly the other lists. */
function listFilter(userId: number, query: { to_ckeckin?: string }): SQL | undefined {
  const toCheckin = isTrue(query.to_ckeckin);
  if (toCheckin === undefined) return ownedBy(userId);
  const ready = sql`(${shoppingLists.cartId} is null and exists (select 1 from ${shoppingListItems}
    where ${shoppingListItems.shoppingListId} = ${shoppingLists.id}))`;
  return and(ownedBy(userId), toCheckin ? ready : sql`not ${ready}`);
}

const ORDER_COLUMNS = { created: shoppingLists.created, name: shoppingLists.name } as const;

/**
 * The user's lists (filtered by `to_ckeckin`, in `ordering`, newest first by default), each
 * with its items: two queries a page, whatever the page holds.
 */
export function userLists(
  db: Db,
  userId: number,
  query: ShoppingListQuery,
): PageSource<ShoppingList> {
  const where = listFilter(userId, query);
  const { key, descending } = parseOrdering<(typeof ORDERING_KEYS)[number]>(
    query.ordering,
    '-created',
  );
  const direction = descending ? desc : asc;
  return tablePage(db, shoppingLists, {
    where,
    orderBy: [direction(ORDER_COLUMNS[key]), direction(shoppingLists.id)],
    records: (rows) => withItems(db, rows),
  });
}

/** The user's list in its full form; NotFound also for another user's list. */
export async function findList(db: Db, userId: number, id: number): Promise<ShoppingList> {
  const rows = await db
    .select()
    .from(shoppingLists)
    .where(and(ownedBy(userId), eq(shoppingLists.id, id)));
  const [list] = await withItems(db, rows);
  if (!list) throw new NotFound('shopping_list');
  return list;
}

async function withItems(db: Db, rows: ListRow[]): Promise<ShoppingList[]> {
  const ids = rows.map((r) => r.id);
  const itemRows =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(shoppingListItems)
          .where(inArray(shoppingListItems.shoppingListId, ids))
          .orderBy(asc(shoppingListItems.created), asc(shoppingListItems.id));
  const byList = groupBy(itemRows, (item) => item.shoppingListId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    items: (byList.get(row.id) ?? []).map(shoppingListItemRecord),
    created: ts(row.created),
  }));
}

/**
 * Items of the user's lists, oldest first; `listId` keeps one list's (another user's list
 * gives none).
 */
export function userItems(
  db: Db,
  userId: number,
  listId: number | undefined,
): PageSource<ShoppingListItem> {
  const where = and(
    itemOwnedBy(db, userId),
    listId === undefined ? undefined : eq(shoppingListItems.shoppingListId, listId),
  );
  return tablePage(db, shoppingListItems, {
    where,
    orderBy: [asc(shoppingListItems.created), asc(shoppingListItems.id)],
    records: (rows) => rows.map(shoppingListItemRecord),
  });
}

/** An item of one of the user's lists; NotFound also for another user's item. */
export async function findItem(db: Db, userId: number, id: number): Promise<ShoppingListItem> {
  const [row] = await db
    .select()
    .from(shoppingListItems)
    .where(and(eq(shoppingListItems.id, id), itemOwnedBy(db, userId)));
  if (!row) throw new NotFound('shopping_list_item');
  return shoppingListItemRecord(row);
}
