import type { App } from '../deps.js';
import { currentUser, lookUpCaller } from '../http/auth.js';
import { idempotent } from '../http/idempotency.js';
import { pagedRoute } from '../http/paged-route.js';
import { IdParamsSchema, NoBodySchema } from '../http/schemas.js';
import { IdempotencyHeadersSchema } from '../idempotency/schemas.js';
import { addItem, addItemWithCaller, deleteItem, setItemQuantity } from './logic.js';
import { countItems, itemFilter, listItems } from './queries.js';
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
      // Behind a pooler the add brings its caller (one call fewer, decision 0016).
      config: { references: { cart: 'cart' }, conflicts: true, callerInRead: true },
      schema: {
        tags,
        operationId: 'createItem',
        summary: 'Add a line to a cart; the same part number merges into its line',
        description: 'Answers 201 with the line as it now stands (merged quantity included).',
        headers: IdempotencyHeadersSchema,
        body: ItemCreateBodySchema,
        response: { 201: CartItemSchema },
      },
    },
    async (request, reply) => {
      const { cart, part_number, quantity } = request.body;
      const now = clock.nowMicros();
      // A key is kept per user: with one, the caller is looked up first.
      if (typeof request.headers['idempotency-key'] !== 'string') {
        const added = await addItemWithCaller(request, database, cart, part_number, quantity, now);
        if (added) return reply.code(201).send(added);
      }
      await lookUpCaller(request, database);
      const { status, answer } = await idempotent(request, reply, 201, ({ run }) =>
        addItem(run, currentUser(request), cart, part_number, quantity, now),
      );
      return reply.code(status).send(answer);
    },
  );

  pagedRoute(app, '/items/', {
    schema: {
      tags,
      operationId: 'listItems',
      summary: 'Lines of the carts available to the user, optionally of one cart',
      querystring: ItemListQuerySchema,
    },
    item: CartItemSchema,
    list: (request) => {
      const where = itemFilter(currentUser(request), request.query);
      return {
        count: () => countItems(db, where),
        rows: (limit, offset) => listItems(db, where, limit, offset),
      };
    },
  });

  app.patch(
    '/items/:id/',
    {
      config: { conflicts: true },
      schema: {
        tags,
        operationId: 'updateItem',
        summary: "Change a line's quantity",
        params: IdParamsSchema,
        body: ItemUpdateBodySchema,
        response: { 200: CartItemSchema },
      },
    },
    async (request) =>
      setItemQuantity(
        db,
        currentUser(request),
        Number(request.params.id),
        request.body.quantity,
        clock.nowMicros(),
      ),
  );

  app.delete(
    '/items/:id/',
    {
      config: { conflicts: true },
      schema: {
        tags,
        operationId: 'deleteItem',
        summary: 'Remove a line from a cart',
        params: IdParamsSchema,
        response: { 204: NoBodySchema },
      },
    },
    async (request, reply) => {
      await deleteItem(db, currentUser(request), Number(request.params.id), clock.nowMicros());
      return reply.code(204).send();
    },
  );
}
