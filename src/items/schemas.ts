import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { IntegerQuerySchema } from '../http/query.js';
import { TimestampSchema } from '../http/schemas.js';

export const MAX_QUANTITY = 1_000_000;
/** A cart's total quantity (its lines' sum) is a 32-bit integer. */
export const MAX_CART_QUANTITY = 2_147_483_647;

const QuantitySchema = Type.Integer({ minimum: 1, maximum: MAX_QUANTITY });

export const CartItemSchema = Type.Object({
  id: Type.Integer(),
  cart: Type.Integer(),
  part_number: Type.String(),
  quantity: Type.Integer(),
  created: TimestampSchema,
});
export type CartItem = Static<typeof CartItemSchema>;

export const ItemCreateBodySchema = Type.Object({
  cart: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  part_number: Type.String({ minLength: 1, maxLength: 64 }),
  quantity: QuantitySchema,
});
export type ItemCreateBody = Static<typeof ItemCreateBodySchema>;

export const ItemUpdateBodySchema = Type.Object({ quantity: QuantitySchema });

export const ItemListQuerySchema = Type.Object({
  cart: Type.Optional(IntegerQuerySchema),
  ...PageQuery,
});
export type ItemListQuery = Static<typeof ItemListQuerySchema>;
