import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { BoolQuerySchema, IntegerQuerySchema, OrderingQuery } from '../http/query.js';
import { Nullable, TimestampSchema } from '../http/schemas.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_QUANTITY = 1_000_000;

/** Trimmed before use; blank after trimming is refused like an empty string. */
const NameSchema = Type.String({
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  description: `Non-empty after trimming, at most ${MAX_NAME_LENGTH} characters; stored trimmed`,
});
const QuantitySchema = Type.Integer({ minimum: 1, maximum: MAX_QUANTITY });

export const ShoppingListItemSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  quantity: Type.Integer(),
  scanned: Type.Boolean(),
  created: TimestampSchema,
});
export type ShoppingListItem = Static<typeof ShoppingListItemSchema>;

export const ShoppingListSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  items: Type.Array(ShoppingListItemSchema, { description: 'oldest first' }),
  created: TimestampSchema,
});
export type ShoppingList = Static<typeof ShoppingListSchema>;

export const ORDERING_KEYS = ['created', 'name'] as const;

export const ShoppingListQuerySchema = Type.Object({
  /** Spelled so by the interface. True: no cart and at least one item; False: the others. */
  to_ckeckin: Type.Optional(BoolQuerySchema),
  ordering: Type.Optional(OrderingQuery(ORDERING_KEYS)),
  ...PageQuery,
});
export type ShoppingListQuery = Static<typeof ShoppingListQuerySchema>;

export const ShoppingListCreateBodySchema = Type.Object({ name: NameSchema });

export const ShoppingListUpdateBodySchema = Type.Object({
  name: Type.Optional(NameSchema),
  cart: Type.Optional(
    Nullable(Type.Integer({ description: "id of one of the user's own carts; null unlinks" })),
  ),
});
export type ShoppingListUpdateBody = Static<typeof ShoppingListUpdateBodySchema>;

export const ShoppingListItemQuerySchema = Type.Object({
  shopping_list: Type.Optional(IntegerQuerySchema),
  ...PageQuery,
});

export const ShoppingListItemCreateBodySchema = Type.Object({
  // Range checked in code: an impossible id reads "does not exist", like any unknown id.
  shopping_list: Type.Integer({ description: "id of one of the user's own lists" }),
  name: NameSchema,
  quantity: QuantitySchema,
  scanned: Type.Optional(Type.Boolean({ default: false })),
});
export type ShoppingListItemCreateBody = Static<typeof ShoppingListItemCreateBodySchema>;

export const ShoppingListItemUpdateBodySchema = Type.Object({
  name: Type.Optional(NameSchema),
  quantity: Type.Optional(QuantitySchema),
  scanned: Type.Optional(Type.Boolean()),
});
export type ShoppingListItemUpdateBody = Static<typeof ShoppingListItemUpdateBodySchema>;
