import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { HotStatements, iso, Params, type Statement, statement } from '../db/statement.js';
import { NotFound } from '../errors.js';
import { type AuthUser, currentUser, isStaff, readWithCaller } from '../http/auth.js';
import type { TextPageSource } from '../http/paged-route.js';
import { DEFAULT_PAGE_SIZE } from '../http/pagination.js';
import { parseOrdering } from '../http/query.js';
import {
  ANY_INSTANT,
  type CartFilter,
  cartConditions,
  needsStores,
  readCartFilter,
  whereClause,
} from './filter.js';
import { foldGrainsDaily } from './grain-fold.js';
import { rollupEligible, rollupTotals } from './rollups.js';
import type { CartFilters, CheckoutRecord, ORDERING_KEYS } from './schemas.js';

/**
 * A cart in list form (`CartListedSchema`) as JSON, written by PostgreSQL in the
 * statement that reads it: its checkout, controls, lines, organization, store and user
 * gathered by subqueries, each object by `row_to_json` of a row whose columns are the
 * schema's properties in the schema's order. Building the objects in the service and
 * serializing them cost more than the query (issue 19: the customer list at 0.6 of a server
 * that sends PostgreSQL's document); the text is byte for byte what the schema's serializer
 * writes for the same cart (test/carts/cart-json.test.ts).
 */
const CART_JSON = `(select row_to_json(j) from (select c.id,
    (select row_to_json(k) from (select k.id, k.cart_id as cart, ${iso('k.created')} as created,
        k.order_id, k.order_number, k.timed_out
      from checkouts k where k.cart_id = c.id) k) as checkout,
    array(select cc.control_id from control_carts cc where cc.cart_id = c.id
      order by cc.control_id) as controls,
    ${iso('c.created')} as created, ${iso('c.last_activity')} as last_activity,
    c.customer_order_number, c.order_mark, c.reference,
    array_to_json(array(select row_to_json(i) from (select i.id, i.cart_id as cart,
        i.part_number, i.quantity, ${iso('i.created')} as created
      from items i where i.cart_id = c.id order by i.created, i.id) i)) as items,
    c.items_count, c.total_quantity,
    (select row_to_json(o) from (select o.id, o.code, ${iso('o.created')} as created, o.name,
        o.organization_id, o.parent_code
      from organizations o where o.id = c.organization_id) o) as organization,
    (select row_to_json(s) from (select ${iso('s.created')} as created, s.gln, s.id
      from stores s where s.id = c.store_id) s) as store,
    (select row_to_json(u) from (select u.email, u.first_name, u.id, u.last_name, u.username
      from users u where u.id = c.user_id) u) as "user",
    c.checkout_availability_error,
    ${iso('c.checkout_availability_error_at')} as checkout_availability_error_at,
    (select o.has_unlimited_credit from organizations o
      where o.id = c.organization_id) as has_unlimited_credit) j)`;

export const GET_CART = statement(
  `select ${CART_JSON}::text as doc from carts c
  where c.id = $1 and (c.user_id = $2 or $3)`,
  // Behind a pooler (migration 0019: the same text, its plans kept per server connection).
  { pooled: 'select doc from cart_doc($1, $2, $3) as doc' },
);

/** Behind a pooler: the caller's row and the cart's document in one call (migration 0022). */
export const CART_WITH_CALLER = 'select * from cart_doc_as($1, $2)';

/** One cart the caller may see (their own; staff: any), in list form as JSON text: one statement. */
export async function getCart(
  database: Database,
  request: FastifyRequest,
  cartId: number,
): Promise<string> {
  const both = await readWithCaller<{ doc: string | null }>(request, database, CART_WITH_CALLER, [
    cartId,
  ]);
  const doc = both ? both.row.doc : await cartDoc(database, currentUser(request), cartId);
  if (doc === null || doc === undefined) throw new NotFound('cart');
  return doc;
}

async function cartDoc(database: Database, user: AuthUser, cartId: number) {
  const [row] = await database.run<{ doc: string }>(GET_CART, [cartId, user.id, isStaff(user)]);
  return row?.doc;
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
 * the rollups where they can answer it, src/carts/rollups.ts) and the page's carts in list
 * form as the JSON text of an array, whatever the page holds. The text depends only on which filters are
 * set and the ordering; the commonest ones (a customer's own carts, all carts for staff, by
 * default order) are fixed statements, prepared once per connection (`hotPages`).
 */
export function cartList(
  database: Database,
  user: AuthUser,
  query: CartFilters & { ordering?: string },
  nowMicros: number,
): TextPageSource {
  const filter = readCartFilter(user, query, nowMicros);
  return {
    page: async (limit: number, offset: number) => {
      if (rollupEligible(filter)) await foldGrainsDaily(database, nowMicros);
      const p = new Params();
      const [row] = await database.run<{ total: number; results: string }>(
        pageStatement(filter, query.ordering, p, limit, offset),
        p.values,
      );
      return { count: row?.total ?? 0, results: row?.results ?? '[]' };
    },
  };
}

/** One page's statement: a fixed one for the hot shapes (`HOT_PAGES`), else built and unnamed. */
export function pageStatement(
  filter: CartFilter,
  ordering: string | undefined,
  p: Params,
  limit: number,
  offset: number,
): Statement {
  const text = pageText(filter, ordering, p, limit, offset);
  return HOT_PAGES.of(text);
}

/** The statement of one page: its count and the JSON text of its carts (an array), in order. */
function pageText(
  filter: CartFilter,
  ordering: string | undefined,
  p: Params,
  limit: number,
  offset: number,
): string {
  const { key, descending } = parseOrdering<(typeof ORDERING_KEYS)[number]>(ordering, '-created');
  const direction = descending ? 'desc' : 'asc';
  const order = `c.${ORDER_COLUMNS[key]} ${direction}, c.id ${direction}`;
  const count = countSql(filter, p);
  const ids = `select c.id from carts c ${fromStores(filter)}
      ${whereClause(cartConditions(filter, p))}
      order by ${order} limit ${wholeNumber(limit)} offset ${wholeNumber(offset)}`;
  return `select (${count}) as total,
    array_to_json(array(select ${CART_JSON} from unnest(array(${ids})) with ordinality p(id, pos)
      join carts c on c.id = p.id order by p.pos))::text as results`;
}

/**
 * Limit and offset are written into the text, not passed as parameters: a plan made without
 * values reads `limit $n` as a tenth of the rows, and at 10M carts the page over all carts
 * planned that way cost 37 ms instead of 1.5 (decision 0013). They are whole numbers the
 * pager has read; anything else is refused here.
 */
function wholeNumber(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a whole number: ${n}`);
  return String(n);
}

/**
 * The pages most asked for, as fixed statements (a page's plan costs about a third of its
 * database time): the first page, of the default size, of a customer's own carts; of staff's
 * over all carts, of a store, and between dates; all by default order, their texts made by
 * `pageText` itself, so they cannot drift from what a request builds. Those with parameters
 * run with their plan made once (`genericPlan`): PostgreSQL would otherwise plan every
 * execution anew (its estimate of a plan without the values, for a range of dates, is dearer
 * than one with them), and planning cost about half of a page's database time.
 */
const HOT_PAGES = new HotStatements();
// Behind a pooler each runs as its function (migration 0019, the same text, decision 0016).
for (const [staff, query, pooled] of [
  [false, {}, 'customer_page($1, $2)'],
  [true, {}, 'staff_page()'],
  [true, { gln: '0' }, 'staff_page_store($1, $2)'],
  [
    true,
    { created_after: ANY_INSTANT, created_before: ANY_INSTANT },
    'staff_page_between($1, $2, $3, $4)',
  ],
  [true, { created_after: ANY_INSTANT }, 'staff_page_after($1, $2)'],
  [true, { created_before: ANY_INSTANT }, 'staff_page_before($1, $2)'],
] as const) {
  const user = { id: 0, isStaff: staff, isAdmin: false } as AuthUser;
  const p = new Params();
  const text = pageText(readCartFilter(user, query, 0), undefined, p, DEFAULT_PAGE_SIZE, 0);
  HOT_PAGES.add(text, p, `select * from ${pooled}`);
}

function fromStores(f: CartFilter): string {
  return needsStores(f) ? 'left join stores s on s.id = c.store_id' : '';
}

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
