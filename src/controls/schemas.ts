import { Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { BoolQuery, IntegerQuery, OrderingQuery } from '../http/query.js';
import { Nullable, Timestamp } from '../http/schemas.js';

/** Ids are 32-bit: a larger number can name no row (and would overflow the column). */
const idRange = { minimum: 1, maximum: 2_147_483_647 };

export const ControlStatus = Type.Union([Type.Literal('pending'), Type.Literal('verified')]);

export const ControlCreateBody = Type.Object({
  user: Type.Integer({ ...idRange, description: 'id of the user whose carts are controlled' }),
  store: Type.Integer({ ...idRange, description: 'store id (a user may have carts in several)' }),
  status: ControlStatus,
});

export const ControlUpdateBody = Type.Object({
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified')], {
    description: 'Only `verified` is a valid target',
  }),
});

const common = {
  id: Type.Integer(),
  created: Timestamp,
  verified_at: Nullable(Timestamp),
  is_random: Type.Boolean(),
  status: ControlStatus,
  user: Type.Integer({ description: 'id of the user the control refers to' }),
};

/** The create form, also used by the list and the detail. */
export const Control = Type.Object({
  ...common,
  store: Type.Integer({ description: 'store id' }),
  carts: Type.Array(Type.Integer(), { description: 'ids of the controlled carts, ascending' }),
  controller: Nullable(
    Type.Integer({ description: 'id of the admin who created it; null for random controls' }),
  ),
});

/** The update form of interface.md: one `cart` in place of `carts`, no store or controller. */
export const ControlUpdated = Type.Object({
  ...common,
  cart: Nullable(Type.Integer({ description: 'the lowest cart id of the control' })),
});

export const ORDERING_KEYS = ['created'] as const;

export const ControlListQuery = Type.Object({
  status: Type.Optional(ControlStatus),
  store: Type.Optional(IntegerQuery),
  user: Type.Optional(IntegerQuery),
  is_random: Type.Optional(BoolQuery),
  ordering: Type.Optional(OrderingQuery(ORDERING_KEYS)),
  ...PageQuery,
});
