import { and, asc, desc, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { formatDbTimestamp, formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { groupBy } from '../db/pages.js';
import {
  carts,
  checkouts,
  controlCarts,
  items,
  organizations,
  stores,
  users,
} from '../db/schema.js';
import { NotFound } from '../errors.js';
import type { AuthUser } from '../http/auth.js';
import { dateTimeQuery, isTrue, parseOrdering } from '../http/query.js';
import { itemRecord } from '../items/queries.js';
import { organizationRecord } from '../organizations/queries.js';
import { activeAt, visibleTo } from './access.js';
import type { CartFilters, CartListed, CheckoutRecord, ORDERING_KEYS } from './schemas.js';

/** The WHERE of the cart list, stats and time series (carts ⟕ stores). */
export function cartFilter(user: AuthUser, query: CartFilters, nowMicros: number): SQL | undefined {
  const now = formatMicros(nowMicros);
  const conditions: (SQL | undefined)[] = [visibleTo(user)];
  const active = isTrue(query.active);
  if (active !== undefined) conditions.push(active ? activeAt(now) : sql`not ${activeAt(now)}`);
  const after = dateTimeQuery('created_after', query.created_after);
  if (after !== undefined) conditions.push(gt(carts.created, after));
  const before = dateTimeQuery('created_before', query.created_before);
  if (before !== undefined) conditions.push(lt(carts.created, before));
  const checkedOut = isTrue(query.checkout);
  if (checkedOut !== undefined) conditions.push(eq(carts.checkedOut, checkedOut));
  if (query.gln !== undefined) conditions.push(eq(stores.gln, query.gln));
  if (isTrue(query.exclude_warehouse)) conditions.push(sql`${carts.storeId} is not null`);
  const availabilityError = isTrue(query.checkout_availability_error);
  if (availabilityError !== undefined) {
    conditions.push(eq(carts.checkoutAvailabilityError, availabilityError));
  }
  if (query.user !== undefined) conditions.push(eq(carts.userId, Number(query.user)));
  const where = and(...conditions);
  if (!isTrue(query.each_user)) return where;
  // Per user, the most recent active cart among those the other filters keep.
  const latest = sql`select distinct on (${carts.userId}) ${carts.id} from ${carts}
    left join ${stores} on ${stores.id} = ${carts.storeId}
    where ${and(where, activeAt(now))}
    order by ${carts.userId}, ${carts.created} desc, ${carts.id} desc`;
  return and(where, sql`${carts.id} in (${latest})`);
}

const ORDER_COLUMNS = {
  created: carts.created,
  last_activity: carts.lastActivity,
  customer_order_number: carts.customerOrderNumber,
  items_count: carts.itemsCount,
  total_quantity: carts.totalQuantity,
} as const;

export async function countCarts(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(carts)
    .leftJoin(stores, eq(stores.id, carts.storeId))
    .where(where);
  return row.count;
}

/**
 * One page of carts in list form, in four queries whatever the page holds: the carts with
 * their store, organization, user and checkout; then their items; then their controls.
 */
export async function listCarts(
  db: Db,
  where: SQL | undefined,
  ordering: string | undefined,
  limit: number,
  offset: number,
): Promise<CartListed[]> {
  const { key, descending } = parseOrdering<(typeof ORDERING_KEYS)[number]>(ordering, '-created');
  const direction = descending ? desc : asc;
  const rows = await selectCarts(db)
    .where(where)
    .orderBy(direction(ORDER_COLUMNS[key]), direction(carts.id))
    .limit(limit)
    .offset(offset);
  return withItemsAndControls(db, rows);
}

/** One cart the user may see, in list form. */
export async function getCart(
  db: Db,
  user: AuthUser,
  cartId: number,
  nowMicros: number,
): Promise<CartListed> {
  const where = and(cartFilter(user, {}, nowMicros), eq(carts.id, cartId));
  const rows = await selectCarts(db).where(where).limit(1);
  const [cart] = await withItemsAndControls(db, rows);
  if (!cart) throw new NotFound('cart');
  return cart;
}

function selectCarts(db: Db) {
  return db
    .select({
      cart: carts,
      store: stores,
      organization: organizations,
      user: users,
      checkout: checkouts,
    })
    .from(carts)
    .leftJoin(stores, eq(stores.id, carts.storeId))
    .innerJoin(organizations, eq(organizations.id, carts.organizationId))
    .innerJoin(users, eq(users.id, carts.userId))
    .leftJoin(checkouts, eq(checkouts.cartId, carts.id))
    .$dynamic();
}

type CartRow = {
  cart: typeof carts.$inferSelect;
  store: typeof stores.$inferSelect | null;
  organization: typeof organizations.$inferSelect;
  user: typeof users.$inferSelect;
  checkout: typeof checkouts.$inferSelect | null;
};

async function withItemsAndControls(db: Db, rows: CartRow[]): Promise<CartListed[]> {
  const ids = rows.map((r) => r.cart.id);
  const [itemRows, controlRows] =
    ids.length === 0
      ? [[], []]
      : [
          await db
            .select()
            .from(items)
            .where(inArray(items.cartId, ids))
            .orderBy(asc(items.created), asc(items.id)),
          await db
            .select()
            .from(controlCarts)
            .where(inArray(controlCarts.cartId, ids))
            .orderBy(asc(controlCarts.controlId)),
        ];
  const itemsByCart = groupBy(itemRows, (i) => i.cartId);
  const controlsByCart = groupBy(controlRows, (c) => c.cartId);
  return rows.map(({ cart, store, organization, user, checkout }) => ({
    id: cart.id,
    checkout: checkout ? checkoutRecord(checkout) : null,
    controls: (controlsByCart.get(cart.id) ?? []).map((c) => c.controlId),
    created: ts(cart.created),
    last_activity: ts(cart.lastActivity),
    customer_order_number: cart.customerOrderNumber,
    order_mark: cart.orderMark,
    reference: cart.reference,
    items: (itemsByCart.get(cart.id) ?? []).map(itemRecord),
    items_count: cart.itemsCount,
    total_quantity: cart.totalQuantity,
    organization: organizationRecord(organization),
    store: store ? { created: ts(store.created), gln: store.gln, id: store.id } : null,
    user: {
      email: user.email,
      first_name: user.firstName,
      id: user.id,
      last_name: user.lastName,
      username: user.username,
    },
    checkout_availability_error: cart.checkoutAvailabilityError,
    checkout_availability_error_at: formatDbTimestamp(cart.checkoutAvailabilityErrorAt),
    has_unlimited_credit: organization.hasUnlimitedCredit,
  }));
}

const ts = (value: string) => formatDbTimestamp(value) as string;

export function checkoutRecord(row: typeof checkouts.$inferSelect): CheckoutRecord {
  return {
    id: row.id,
    cart: row.cartId,
    created: ts(row.created),
    order_id: row.orderId,
    order_number: row.orderNumber,
    timed_out: row.timedOut,
  };
}
