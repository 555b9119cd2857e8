import type { Database } from '../db/client.js';
import type { PageSource } from '../db/pages.js';
import { builtStatement, iso, Params, statement } from '../db/statement.js';
import { NotFound } from '../errors.js';
import type { AuthUser } from '../http/auth.js';
import { parseOrdering } from '../http/query.js';
import type { CartItem } from '../items/schemas.js';
import {
  type CartFilter,
  cartConditions,
  needsStores,
  readCartFilter,
  whereClause,
} from './filter.js';
import { foldGrainsDaily } from './grain-fold.js';
import { rollupEligible, rollupTotals } from './rollups.js';
import type { CartFilters, CartListed, CheckoutRecord, ORDERING_KEYS } from './schemas.js';

/**
 * A cart in list form, read in one statement: its store, organization, user and checkout
 * joined, its lines and controls gathered by subqueries (`p` is the page of cart ids in
 * order, as `p(id, pos)`).
 */
const CART_COLUMNS = `c.id, ${iso('c.created')} as created, ${iso('c.last_activity')} as last_activity,
  c.customer_order_number, c.order_mark, c.reference, c.items_count, c.total_quantity,
  c.checkout_availability_error,
  ${iso('c.checkout_availability_error_at')} as checkout_availability_error_at,
  s.id as store_id, s.gln as store_gln, ${iso('s.created')} as store_created,
  o.id as organization_pk, o.organization_id, o.code as organization_code,
  o.name as organization_name, o.parent_code as organization_parent_code,
  ${iso('o.created')} as organization_created, o.has_unlimited_credit,
  u.id as user_id, u.email, u.first_name, u.last_name, u.username,
  k.id as checkout_id, ${iso('k.created')} as checkout_created, k.order_id, k.order_number,
  k.timed_out,
  coalesce((select json_agg(json_build_object('id', i.id, 'cart', i.cart_id,
      'part_number', i.part_number, 'quantity', i.quantity, 'created', ${iso('i.created')})
      order by i.created, i.id) from items i where i.cart_id = c.id), '[]') as items,
  array(select cc.control_id from control_carts cc where cc.cart_id = c.id
    order by cc.control_id) as controls`;

const CART_JOINS = `left join stores s on s.id = c.store_id
  join organizations o on o.id = c.organization_id
  join users u on u.id = c.user_id
  left join checkouts k on k.cart_id = c.id`;

interface CartRow {
  id: number;
  created: string;
  last_activity: string;
  customer_order_number: string;
  order_mark: string;
  reference: string | null;
  items_count: number;
  total_quantity: number;
  checkout_availability_error: boolean;
  checkout_availability_error_at: string | null;
  store_id: number | null;
  store_gln: string;
  store_created: string;
  organization_pk: number;
  organization_id: string;
  organization_code: string;
  organization_name: string;
  organization_parent_code: string;
  organization_created: string;
  has_unlimited_credit: boolean;
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  username: string;
  checkout_id: number | null;
  checkout_created: string;
  order_id: string;
  order_number: string;
  timed_out: boolean;
  items: CartItem[];
  controls: number[];
}

function cartRecord(r: CartRow): CartListed {
  return {
    id: r.id,
    checkout:
      r.checkout_id === null
        ? null
        : {
            id: r.checkout_id,
            cart: r.id,
            created: r.checkout_created,
            order_id: r.order_id,
            order_number: r.order_number,
            timed_out: r.timed_out,
          },
    controls: r.controls,
    created: r.created,
    last_activity: r.last_activity,
    customer_order_number: r.customer_order_number,
    order_mark: r.order_mark,
    reference: r.reference,
    items: r.items,
    items_count: r.items_count,
    total_quantity: r.total_quantity,
    organization: {
      id: r.organization_pk,
      code: r.organization_code,
      created: r.organization_created,
      name: r.organization_name,
      organization_id: r.organization_id,
      parent_code: r.organization_parent_code,
    },
    store:
      r.store_id === null ? null : { created: r.store_created, gln: r.store_gln, id: r.store_id },
    user: {
      email: r.email,
      first_name: r.first_name,
      id: r.user_id,
      last_name: r.last_name,
      username: r.username,
    },
    checkout_availability_error: r.checkout_availability_error,
    checkout_availability_error_at: r.checkout_availability_error_at,
    has_unlimited_credit: r.has_unlimited_credit,
  };
}

const GET_CART = statement(`select ${CART_COLUMNS} from carts c ${CART_JOINS}
  where c.id = $1 and (c.user_id = $2 or $3)`);

/** One cart the user may see (their own; staff: any), in list form: one statement. */
export async function getCart(
  database: Database,
  user: AuthUser,
  cartId: number,
): Promise<CartListed> {
  const staff = user.isStaff || user.isAdmin;
  const [row] = await database.run<CartRow>(GET_CART, [cartId, user.id, staff]);
  if (!row) throw new NotFound('cart');
  return cartRecord(row);
}

const ORDER_COLUMNS: Record<(typeof ORDERING_KEYS)[number], string> = {
  created: 'created',
  last_activity: 'last_activity',
  customer_order_number: 'customer_order_number',
  items_count: 'items_count',
  total_quantity: 'total_quantity',
};

/**
 * The carts a request's filters keep, a page at a time in one statement: the count (from
 * the rollups where they can answer it, src/carts/rollups.ts) and the page's carts in
 * list form, whatever the page holds.
 */
export function cartList(
  database: Database,
  user: AuthUser,
  query: CartFilters & { ordering?: string },
  nowMicros: number,
): PageSource<CartListed> {
  const filter = readCartFilter(user, query, nowMicros);
  const { key, descending } = parseOrdering<(typeof ORDERING_KEYS)[number]>(
    query.ordering,
    '-created',
  );
  const direction = descending ? 'desc' : 'asc';
  const order = `c.${ORDER_COLUMNS[key]} ${direction}, c.id ${direction}`;
  const page = async (limit: number, offset: number) => {
    if (rollupEligible(filter)) await foldGrainsDaily(database, nowMicros);
    const p = new Params();
    const count = countSql(filter, p);
    const ids = `select c.id from carts c ${fromStores(filter)}
      ${whereClause(cartConditions(filter, p))}
      order by ${order} limit ${p.add(limit)} offset ${p.add(offset)}`;
    const rows = await database.run<CartRow & { total: number }>(
      builtStatement(`select t.total, x.* from (select (${count}) as total) t
        left join lateral (select ${CART_COLUMNS}, p.pos
          from unnest(array(${ids})) with ordinality p(id, pos)
          join carts c on c.id = p.id ${CART_JOINS}) x on true
        order by x.pos`),
      p.values,
    );
    const count_ = rows[0]?.total ?? 0;
    return { count: count_, rows: rows.filter((r) => r.id !== null).map(cartRecord) };
  };
  return {
    page,
    count: async () => (await page(0, 0)).count,
    rows: async (limit, offset) => (await page(limit, offset)).rows,
  };
}

const fromStores = (f: CartFilter) =>
  needsStores(f) ? 'left join stores s on s.id = c.store_id' : '';

/** How many carts the filter keeps: a scalar subquery. */
function countSql(filter: CartFilter, p: Params): string {
  if (rollupEligible(filter)) return rollupTotals(filter, p, 'carts');
  return `select count(*)::int from carts c ${fromStores(filter)}
    ${whereClause(cartConditions(filter, p))}`;
}

export function checkoutRecord(row: {
  id: number;
  cart_id: number;
  created: string;
  order_id: string;
  order_number: string;
  timed_out: boolean;
}): CheckoutRecord {
  return {
    id: row.id,
    cart: row.cart_id,
    created: row.created,
    order_id: row.order_id,
    order_number: row.order_number,
    timed_out: row.timed_out,
  };
}
