import { Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { BoolQuery, IntegerQuery, OrderingQuery } from '../http/query.js';
import { Nullable, Timestamp } from '../http/schemas.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_QUANTITY = 1_000_000;

/** Trimmed before use; blank after trimming is refused like an empty string. */
const Name = Type.String({
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  description: `Non-empty after trimming, at most ${MAX_NAME_LENGTH} characters; stored trimmed`,
});
const Quantity = Type.Integer({ minimum: 1, maximum: MAX_QUANTITY });

export const ShoppingListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  quantity: Type.Integer(),
  scanned: Type.Boolean(),
  created: Timestamp,
});

export const ShoppingList = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  items: Type.Array(ShoppingListItem, { description: 'oldest first' }),
  created: Timestamp,
});

export const ORDERING_KEYS = ['created', 'name'] as const;

export const ShoppingListQuery = Type.Object({
  /** Spelled so by the interface. True: no cart and at least one item; False: the others. */
  to_ckeckin: Type.Optional(BoolQuery),
  ordering: Type.Optional(OrderingQuery(ORDERING_KEYS)),
  ...PageQuery,
});

export const ShoppingListCreateBody = Type.Object({ name: Name });

export const ShoppingListUpdateBody = Type.Object({
  name: Type.Optional(Name),
  cart: Type.Optional(
    Nullable(Type.Integer({ description: "id of one of the user's own carts; null unlinks" })),
  ),
});

export const ItemListQuery = Type.Object({
  shopping_list: Type.Optional(IntegerQuery),
  ...PageQuery,
});

export const ItemCreateBody = Type.Object({
  // Range checked in code: an impossible id reads "does not exist", like any unknown id.
  shopping_list: Type.Integer({ description: "id of one of the user's own lists" }),
  name: Name,
  quantity: Quantity,
  scanned: Type.Optional(Type.Boolean({ default: false })),
});

export const ItemUpdateBody = Type.Object({
  name: Type.Optional(Name),
  quantity: Type.Optional(Quantity),
  scanned: Type.Optional(Type.Boolean()),
});
