import { and, asc, eq, sql } from 'drizzle-orm';
import { shoppingListItems } from '../db/schema.js';
import type { App } from '../deps.js';
import { currentUser } from '../http/auth.js';
import { errors } from '../http/errors.js';
import { Paged, pageOf, paginate } from '../http/pagination.js';
import { IdParams } from '../http/schemas.js';
import {
  cleanName,
  createItem,
  createList,
  deleteItem,
  deleteList,
  itemOwnedBy,
  updateItem,
  updateList,
} from './logic.js';
import { countLists, findList, itemRecord, listFilter, listLists } from './queries.js';
import {
  ItemCreateBody,
  ItemListQuery,
  ItemUpdateBody,
  ShoppingList,
  ShoppingListCreateBody,
  ShoppingListItem,
  ShoppingListQuery,
  ShoppingListUpdateBody,
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

  app.get(
    '/shopping-lists/',
    {
      schema: {
        tags,
        summary: "The user's shopping lists, each with its items",
        description:
          `${PERSONAL} Newest first by default (\`ordering\`: \`created\`, \`name\`). ` +
          '`to_ckeckin` (spelled so): `True` keeps the lists that have no cart and at least ' +
          'one item (ready to be scanned into a cart); `False` keeps all the others. ' +
          'The cart a list is linked to is not part of the representation.',
        querystring: ShoppingListQuery,
        response: { 200: Paged(ShoppingList) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const page = pageOf(request.query);
      const where = listFilter(user.id, request.query);
      return paginate(
        request,
        page,
        () => countLists(db, where),
        (limit, offset) => listLists(db, where, request.query.ordering, limit, offset),
      );
    },
  );

  app.post(
    '/shopping-lists/',
    {
      schema: {
        tags,
        summary: 'Create a shopping list',
        description:
          `Answers 201 with an empty body; the \`Location\` header holds the absolute URL of ` +
          `the new list (\`/api/v1/shopping-lists/{id}/\`), to GET it. ${NAMES}`,
        body: ShoppingListCreateBody,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const name = cleanName(request.body.name);
      const id = await createList(db, user.id, name, clock.nowMicros());
      const location = `${request.protocol}://${request.host}/api/v1/shopping-lists/${id}/`;
      return reply.code(201).header('Location', location).send();
    },
  );

  app.get(
    '/shopping-lists/:id/',
    {
      schema: {
        tags,
        summary: 'One shopping list with its items',
        description: PERSONAL,
        params: IdParams,
        response: { 200: ShoppingList },
      },
    },
    async (request) => {
      const list = await findList(db, currentUser(request).id, Number(request.params.id));
      if (!list) throw errors.notFound();
      return list;
    },
  );

  app.patch(
    '/shopping-lists/:id/',
    {
      schema: {
        tags,
        summary: 'Rename a list, or link it to a cart (or unlink it with null)',
        description:
          `\`cart\` is the id of one of the user's own carts (any state), or null to unlink. ` +
          `A linked list no longer counts as \`to_ckeckin\`. Answers 200 with the list. ` +
          `${NAMES} ${PERSONAL}`,
        params: IdParams,
        body: ShoppingListUpdateBody,
        response: { 200: ShoppingList },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const id = Number(request.params.id);
      const { name, cart } = request.body;
      await updateList(db, user.id, id, {
        name: name === undefined ? undefined : cleanName(name),
        cart,
      });
      const list = await findList(db, user.id, id);
      // Deleted between the change and the read: it is gone for the client too.
      if (!list) throw errors.notFound();
      return list;
    },
  );

  app.delete(
    '/shopping-lists/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a shopping list and its items',
        description: `Answers 204. ${PERSONAL}`,
        params: IdParams,
      },
    },
    async (request, reply) => {
      await deleteList(db, currentUser(request).id, Number(request.params.id));
      return reply.code(204).send();
    },
  );

  app.get(
    '/shopping-list-items/',
    {
      schema: {
        tags,
        summary: "Items of the user's shopping lists, optionally of one list",
        description:
          'Oldest first. `shopping_list` filters by list id (a list that is not the ' +
          "user's gives an empty page).",
        querystring: ItemListQuery,
        response: { 200: Paged(ShoppingListItem) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const page = pageOf(request.query);
      const listId = request.query.shopping_list;
      const where = and(
        itemOwnedBy(db, user.id),
        listId === undefined ? undefined : eq(shoppingListItems.shoppingListId, Number(listId)),
      );
      return paginate(
        request,
        page,
        async () => {
          const [{ count }] = await db
            .select({ count: sql<number>`count(*)::int` })
            .from(shoppingListItems)
            .where(where);
          return count;
        },
        async (limit, offset) => {
          const rows = await db
            .select()
            .from(shoppingListItems)
            .where(where)
            .orderBy(asc(shoppingListItems.created), asc(shoppingListItems.id))
            .limit(limit)
            .offset(offset);
          return rows.map(itemRecord);
        },
      );
    },
  );

  app.post(
    '/shopping-list-items/',
    {
      schema: {
        tags,
        summary: 'Add an item to one of the user’s shopping lists',
        description:
          'Answers 201 with the item. `quantity` is an integer from 1 to 1,000,000; ' +
          '`scanned` is optional (default false). Items with the same name are not merged. ' +
          `${NAMES} ${PERSONAL}`,
        body: ItemCreateBody,
        response: { 201: ShoppingListItem },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      const row = await createItem(
        db,
        user.id,
        {
          shoppingListId: body.shopping_list,
          name: cleanName(body.name),
          quantity: body.quantity,
          scanned: body.scanned ?? false,
        },
        clock.nowMicros(),
      );
      return reply.code(201).send(itemRecord(row));
    },
  );

  app.get(
    '/shopping-list-items/:id/',
    {
      schema: {
        tags,
        summary: 'One shopping list item',
        description: PERSONAL,
        params: IdParams,
        response: { 200: ShoppingListItem },
      },
    },
    async (request) => {
      const [row] = await db
        .select()
        .from(shoppingListItems)
        .where(
          and(
            eq(shoppingListItems.id, Number(request.params.id)),
            itemOwnedBy(db, currentUser(request).id),
          ),
        );
      if (!row) throw errors.notFound();
      return itemRecord(row);
    },
  );

  app.patch(
    '/shopping-list-items/:id/',
    {
      schema: {
        tags,
        summary: 'Change the name, quantity or scanned flag of an item',
        description:
          'Answers 200 with the item. An item cannot be moved to another list ' +
          `(\`shopping_list\` is ignored here). ${NAMES} ${PERSONAL}`,
        params: IdParams,
        body: ItemUpdateBody,
        response: { 200: ShoppingListItem },
      },
    },
    async (request) => {
      const { name, quantity, scanned } = request.body;
      const row = await updateItem(db, currentUser(request).id, Number(request.params.id), {
        name: name === undefined ? undefined : cleanName(name),
        quantity,
        scanned,
      });
      return itemRecord(row);
    },
  );

  app.delete(
    '/shopping-list-items/:id/',
    {
      schema: {
        tags,
        summary: 'Remove an item from its list',
        description: `Answers 204. ${PERSONAL}`,
        params: IdParams,
      },
    },
    async (request, reply) => {
      await deleteItem(db, currentUser(request).id, Number(request.params.id));
      return reply.code(204).send();
    },
  );
}
