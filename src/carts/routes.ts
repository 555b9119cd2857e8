import { and, eq, sql } from 'drizzle-orm';
import { formatDbTimestamp, formatMicros, isoText } from '../clock.js';
import { randomControlHook } from '../controls/random.js';
import { carts, memberships, organizations, stores } from '../db/schema.js';
import type { App } from '../deps.js';
import { currentUser, upstreamToken } from '../http/auth.js';
import { errors } from '../http/errors.js';
import { Paged, pageOf, paginate } from '../http/pagination.js';
import { IdParams } from '../http/schemas.js';
import { notifyCheckedOut, notifyCheckoutFailed } from '../notifications/events.js';
import { checkoutCart } from './checkout.js';
import { cartFilter, countCarts, findCart, listCarts } from './queries.js';
import {
  CartCreateBodySchema,
  CartCreatedSchema,
  CartListedSchema,
  CartListQuerySchema,
  CartStatsQuerySchema,
  CartStatsSchema,
  CheckoutBodySchema,
  CheckoutRecordSchema,
  TimeSeriesQuerySchema,
  TimeSeriesSchema,
} from './schemas.js';

const tags = ['carts'];
const TRUNC_UNIT = { M: 'month', D: 'day', H: 'hour' } as const;

export default async function cartRoutes(app: App): Promise<void> {
  const { database, clock } = app.deps;
  const { db } = database;

  app.post(
    '/carts/',
    {
      schema: {
        tags,
        summary: 'Create a cart (in a store, or with no store: the customer warehouse)',
        body: CartCreateBodySchema,
        response: { 201: CartCreatedSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      const fieldErrors: Record<string, string[]> = {};
      let store: { id: number; gln: string } | undefined;
      if (body.store != null) {
        [store] = await db
          .select({ id: stores.id, gln: stores.gln })
          .from(stores)
          .where(eq(stores.gln, body.store));
        if (!store) fieldErrors.store = [`Object with gln=${body.store} does not exist.`];
      }
      // Only an organization the user is a member of can be used.
      const [organization] = await db
        .select({ id: organizations.id, organizationId: organizations.organizationId })
        .from(organizations)
        .innerJoin(memberships, eq(memberships.organizationId, organizations.id))
        .where(
          and(eq(organizations.organizationId, body.organization), eq(memberships.userId, user.id)),
        );
      if (!organization) {
        fieldErrors.organization = [
          `Object with organization_id=${body.organization} does not exist.`,
        ];
      }
      if (Object.keys(fieldErrors).length > 0) throw errors.validation(fieldErrors);
      const now = formatMicros(clock.nowMicros());
      const [cart] = await db
        .insert(carts)
        .values({
          userId: user.id,
          organizationId: organization.id,
          storeId: store?.id ?? null,
          customerOrderNumber: body.customer_order_number,
          orderMark: body.order_mark,
          reference: body.reference === undefined ? user.reference : body.reference,
          created: now,
          lastActivity: now,
        })
        .returning();
      return reply.code(201).send({
        id: cart.id,
        created: formatDbTimestamp(cart.created) as string,
        customer_order_number: cart.customerOrderNumber,
        order_mark: cart.orderMark,
        organization: organization.organizationId,
        reference: cart.reference,
        store: store?.gln ?? null,
      });
    },
  );

  app.get(
    '/carts/',
    {
      schema: {
        tags,
        summary: 'List the carts available to the user (staff: all carts)',
        querystring: CartListQuerySchema,
        response: { 200: Paged(CartListedSchema) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const page = pageOf(request.query);
      const where = cartFilter(user, request.query, clock.nowMicros());
      return paginate(
        request,
        page,
        () => countCarts(db, where),
        (limit, offset) => listCarts(db, where, request.query.ordering, limit, offset),
      );
    },
  );

  app.get(
    '/carts/stats/',
    {
      schema: {
        tags,
        summary: 'Total quantity and item lines of the filtered carts',
        querystring: CartStatsQuerySchema,
        response: { 200: CartStatsSchema },
      },
    },
    async (request) => {
      const where = cartFilter(currentUser(request), request.query, clock.nowMicros());
      const [row] = await db
        .select({
          total_quantity: sql<number>`coalesce(sum(${carts.totalQuantity}), 0)::int`,
          total_items: sql<number>`coalesce(sum(${carts.itemsCount}), 0)::int`,
        })
        .from(carts)
        .leftJoin(stores, eq(stores.id, carts.storeId))
        .where(where);
      return row;
    },
  );

  app.get(
    '/carts/time-series/',
    {
      schema: {
        tags,
        summary: 'Carts (or their item lines) per UTC month, day or hour of creation',
        querystring: TimeSeriesQuerySchema,
        response: { 200: TimeSeriesSchema },
      },
    },
    async (request) => {
      const where = cartFilter(currentUser(request), request.query, clock.nowMicros());
      const unit = TRUNC_UNIT[request.query.interval ?? 'D'];
      // A literal, not a parameter: SELECT and GROUP BY must be the same expression.
      const bucket = sql`date_trunc(${sql.raw(`'${unit}'`)}, ${carts.created} at time zone 'UTC')`;
      const total =
        request.query.aggregate === 'items'
          ? sql`coalesce(sum(${carts.itemsCount}), 0)`
          : sql`count(*)`;
      return db
        .select({
          interval: isoText(sql`(${bucket}) at time zone 'UTC'`),
          total: sql<number>`${total}::int`,
        })
        .from(carts)
        .leftJoin(stores, eq(stores.id, carts.storeId))
        .where(where)
        .groupBy(bucket)
        .orderBy(bucket);
    },
  );

  app.get(
    '/carts/:id/',
    {
      schema: {
        tags,
        summary: 'One cart, in list form',
        params: IdParams,
        response: { 200: CartListedSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const where = cartFilter(user, {}, clock.nowMicros());
      const cart = await findCart(db, and(where, eq(carts.id, Number(request.params.id))));
      if (!cart) throw errors.notFound();
      return cart;
    },
  );

  app.patch(
    '/carts/:id/checkout/',
    {
      schema: {
        tags,
        summary: 'Check out: place the order upstream, exactly once',
        description:
          'Uses `Authorization-Upstream` when sent, else the service account. A cart that has ' +
          'a checkout record answers that record. 409 `checkout_in_progress` while another ' +
          'checkout of the cart is in flight (retry). Upstream 503 JSON is passed through ' +
          'and flags the cart with `checkout_availability_error`.',
        params: IdParams,
        body: CheckoutBodySchema,
        response: { 200: CheckoutRecordSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const token = upstreamToken(request);
      const cartId = Number(request.params.id);
      const draw = randomControlHook(app.deps, request.log);
      try {
        return await checkoutCart(
          app.deps,
          user,
          cartId,
          token ? { token } : 'service',
          async (record, cart) => {
            notifyCheckedOut(app.deps, request.log, cart.userId, record);
            await draw(record, cart);
          },
        );
      } catch (error) {
        // Only the owner checks a cart out: the caller is the cart's user.
        notifyCheckoutFailed(app.deps, request.log, user.id, cartId, error);
        throw error;
      }
    },
  );
}
