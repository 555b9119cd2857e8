import type { App } from '../deps.js';
import { currentUser } from '../http/auth.js';
import { idempotent } from '../http/idempotency.js';
import { absoluteUrl } from '../http/links.js';
import { pagedRoute } from '../http/paged-route.js';
import { IdParamsSchema, NoBodySchema } from '../http/schemas.js';
import { IdempotencyHeadersSchema } from '../idempotency/schemas.js';
import { createItem, createList, deleteItem, deleteList, updateItem, updateList } from './logic.js';
import { findItem, findList, userItems, userLists } from './queries.js';
import {
  ShoppingListCreateBodySchema,
  ShoppingListItemCreateBodySchema,
  ShoppingListItemQuerySchema,
  ShoppingListItemSchema,
  ShoppingListItemUpdateBodySchema,
  ShoppingListQuerySchema,
  ShoppingListSchema,
  ShoppingListUpdateBodySchema,
} from './schemas.js';

const tags = ['shopping lists'];
const PERSONAL =
  'Shopping lists are personal: only their owner sees or changes them (staff and admins ' +
  "included); another user's list or item is 404, and another user's list or cart named " +
  'in a body is a 400 on that field.';
const NAMES = 'Names are trimmed and must not be blank; at most 200 characters.';

export default async function shoppingListsRoutes(app: App): Promise<void> {
  const { database, clock } = app.deps;
  const { db } = database;

  pagedRoute(app, '/shopping-lists/', {
    schema: {
      tags,
      operationId: 'listShoppingLists',
      summary: "The user's shopping lists, each with its items",
      description:
        `${PERSONAL} Newest first by default (\`ordering\`: \`created\`, \`name\`). ` +
        '`to_ckeckin` (spelled so): `True` keeps the lists that have no cart and at least ' +
        'one item (ready to be scanned into a cart); `False` keeps all the others. ' +
        'The cart a list is linked to is not part of the representation.',
      querystring: ShoppingListQuerySchema,
    },
    item: ShoppingListSchema,
    list: (request) => userLists(db, currentUser(request).id, request.query),
  });

  app.post(
    '/shopping-lists/',
    {
      schema: {
        tags,
        operationId: 'createShoppingList',
        summary: 'Create a shopping list',
        description:
          `Answers 201 with an empty body; the \`Location\` header holds the absolute URL of ` +
          `the new list (\`/api/v1/shopping-lists/{id}/\`), to GET it. ${NAMES}`,
        headers: IdempotencyHeadersSchema,
        body: ShoppingListCreateBodySchema,
        response: { 201: NoBodySchema },
      },
    },
    async (request, reply) => {
      const { status, answer: id } = await idempotent(request, reply, 201, ({ db }) =>
        createList(db, currentUser(request).id, request.body, clock.nowMicros()),
      );
      const location = absoluteUrl(request, `/api/v1/shopping-lists/${id}/`).href;
      return reply.code(status).header('Location', location).send();
    },
  );

  app.get(
    '/shopping-lists/:id/',
    {
      schema: {
        tags,
        operationId: 'getShoppingList',
        summary: 'One shopping list with its items',
        description: PERSONAL,
        params: IdParamsSchema,
        response: { 200: ShoppingListSchema },
      },
    },
    async (request) => findList(db, currentUser(request).id, Number(request.params.id)),
  );

  app.patch(
    '/shopping-lists/:id/',
    {
      // The cart is named in the body: a cart that is not the user's is a 400 on `cart`.
      config: { references: { cart: 'cart' } },
      schema: {
        tags,
        operationId: 'updateShoppingList',
        summary: 'Rename a list, or link it to a cart (or unlink it with null)',
        description:
          `\`cart\` is the id of one of the user's own carts (any state), or null to unlink. ` +
          `A linked list no longer counts as \`to_ckeckin\`. Answers 200 with the list. ` +
          `${NAMES} ${PERSONAL}`,
        params: IdParamsSchema,
        body: ShoppingListUpdateBodySchema,
        response: { 200: ShoppingListSchema },
      },
    },
    async (request) =>
      updateList(db, currentUser(request).id, Number(request.params.id), request.body),
  );

  app.delete(
    '/shopping-lists/:id/',
    {
      schema: {
        tags,
        operationId: 'deleteShoppingList',
        summary: 'Delete a shopping list and its items',
        description: `Answers 204. ${PERSONAL}`,
        params: IdParamsSchema,
        response: { 204: NoBodySchema },
      },
    },
    async (request, reply) => {
      await deleteList(db, currentUser(request).id, Number(request.params.id));
      return reply.code(204).send();
    },
  );

  pagedRoute(app, '/shopping-list-items/', {
    schema: {
      tags,
      operationId: 'listShoppingListItems',
      summary: "Items of the user's shopping lists, optionally of one list",
      description:
        'Oldest first. `shopping_list` filters by list id (a list that is not the ' +
        "user's gives an empty page).",
      querystring: ShoppingListItemQuerySchema,
    },
    item: ShoppingListItemSchema,
    list: (request) => {
      const listId = request.query.shopping_list;
      return userItems(
        db,
        currentUser(request).id,
        listId === undefined ? undefined : Number(listId),
      );
    },
  });

  app.post(
    '/shopping-list-items/',
    {
      // The list is named in the body: a list that is not the user's is a 400 on it.
      config: { references: { shopping_list: 'shopping_list' } },
      schema: {
        tags,
        operationId: 'createShoppingListItem',
        summary: 'Add an item to one of the user’s shopping lists',
        description:
          'Answers 201 with the item. `quantity` is an integer from 1 to 1,000,000; ' +
          '`scanned` is optional (default false). Items with the same name are not merged. ' +
          `${NAMES} ${PERSONAL}`,
        headers: IdempotencyHeadersSchema,
        body: ShoppingListItemCreateBodySchema,
        response: { 201: ShoppingListItemSchema },
      },
    },
    async (request, reply) => {
      const { status, answer } = await idempotent(request, reply, 201, ({ db }) =>
        createItem(db, currentUser(request).id, request.body, clock.nowMicros()),
      );
      return reply.code(status).send(answer);
    },
  );

  app.get(
    '/shopping-list-items/:id/',
    {
      schema: {
        tags,
        operationId: 'getShoppingListItem',
        summary: 'One shopping list item',
        description: PERSONAL,
        params: IdParamsSchema,
        response: { 200: ShoppingListItemSchema },
      },
    },
    async (request) => findItem(db, currentUser(request).id, Number(request.params.id)),
  );

  app.patch(
    '/shopping-list-items/:id/',
    {
      schema: {
        tags,
        operationId: 'updateShoppingListItem',
        summary: 'Change the name, quantity or scanned flag of an item',
        description:
          'Answers 200 with the item. An item cannot be moved to another list ' +
          `(\`shopping_list\` is ignored here). ${NAMES} ${PERSONAL}`,
        params: IdParamsSchema,
        body: ShoppingListItemUpdateBodySchema,
        response: { 200: ShoppingListItemSchema },
      },
    },
    async (request) =>
      updateItem(db, currentUser(request).id, Number(request.params.id), request.body),
  );

  app.delete(
    '/shopping-list-items/:id/',
    {
      schema: {
        tags,
        operationId: 'deleteShoppingListItem',
        summary: 'Remove an item from its list',
        description: `Answers 204. ${PERSONAL}`,
        params: IdParamsSchema,
        response: { 204: NoBodySchema },
      },
    },
    async (request, reply) => {
      await deleteItem(db, currentUser(request).id, Number(request.params.id));
      return reply.code(204).send();
    },
  );
}
