import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { visibleTo } from '../carts/access.js';
import { carts, items } from '../db/schema.js';
import type { App } from '../deps.js';
import { Invalid } from '../errors.js';
import { currentUser } from '../http/auth.js';
import { Paged, pageOf, paginate } from '../http/pagination.js';
import { IdParams } from '../http/schemas.js';
import { addItem, deleteItem, setItemQuantity } from './logic.js';
import { itemRecord } from './queries.js';
import {
  CartItemSchema,
  ItemCreateBodySchema,
  ItemListQuerySchema,
  ItemUpdateBodySchema,
} from './schemas.js';

const tags = ['items'];

export default async function itemRoutes(app: App): Promise<void> {
  const { database, clock } = app.deps;
  const { db } = database;

  app.post(
    '/items/',
    {
      // The cart is named in the body: a cart the user may not use is a 400 on `cart`.
      config: { references: { cart: 'cart' } },
      schema: {
        tags,
        summary: 'Add a line to a cart; the same part number merges into its line',
        description: 'Answers 201 with the line as it now stands (merged quantity included).',
        body: ItemCreateBodySchema,
        response: { 201: CartItemSchema },
      },
    },
    async (request, reply) => {
      const partNumber = request.body.part_number.trim();
      if (partNumber === '') throw Invalid.field('part_number', 'This field may not be blank.');
      const row = await addItem(
        db,
        currentUser(request),
        request.body.cart,
        partNumber,
        request.body.quantity,
        clock.nowMicros(),
      );
      return reply.code(201).send(itemRecord(row));
    },
  );

  app.get(
    '/items/',
    {
      schema: {
        tags,
        summary: 'Lines of the carts available to the user, optionally of one cart',
        querystring: ItemListQuerySchema,
        response: { 200: Paged(CartItemSchema) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const page = pageOf(request.query);
      const where: SQL | undefined = and(
        visibleTo(user),
        request.query.cart === undefined ? undefined : eq(items.cartId, Number(request.query.cart)),
      );
      return paginate(
        request,
        page,
        async () => {
          const [{ count }] = await db
            .select({ count: sql<number>`count(*)::int` })
            .from(items)
            .innerJoin(carts, eq(carts.id, items.cartId))
            .where(where);
          return count;
        },
        async (limit, offset) => {
          const rows = await db
            .select({ item: items })
            .from(items)
            .innerJoin(carts, eq(carts.id, items.cartId))
            .where(where)
            .orderBy(asc(items.created), asc(items.id))
            .limit(limit)
            .offset(offset);
          return rows.map((r) => itemRecord(r.item));
        },
      );
    },
  );

  app.patch(
    '/items/:id/',
    {
      schema: {
        tags,
        summary: "Change a line's quantity",
        params: IdParams,
        body: ItemUpdateBodySchema,
        response: { 200: CartItemSchema },
      },
    },
    async (request) => {
      const row = await setItemQuantity(
        db,
        currentUser(request),
        Number(request.params.id),
        request.body.quantity,
        clock.nowMicros(),
      );
      return itemRecord(row);
    },
  );

  app.delete(
    '/items/:id/',
    { schema: { tags, summary: 'Remove a line from a cart', params: IdParams } },
    async (request, reply) => {
      await deleteItem(db, currentUser(request), Number(request.params.id), clock.nowMicros());
      return reply.code(204).send();
    },
  );
}
