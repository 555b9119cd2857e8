import { Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { IntegerQuery } from '../http/query.js';
import { Timestamp } from '../http/schemas.js';

export const MAX_QUANTITY = 1_000_000;

const Quantity = Type.Integer({ minimum: 1, maximum: MAX_QUANTITY });

export const CartItem = Type.Object({
  id: Type.Integer(),
  cart: Type.Integer(),
  part_number: Type.String(),
  quantity: Type.Integer(),
  created: Timestamp,
});

export const ItemCreateBody = Type.Object({
  cart: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  part_number: Type.String({ minLength: 1, maxLength: 64 }),
  quantity: Quantity,
});

export const ItemUpdateBody = Type.Object({ quantity: Quantity });

export const ItemListQuery = Type.Object({ cart: Type.Optional(IntegerQuery), ...PageQuery });
