import { Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { BoolQuery, DateTimeQuery, IntegerQuery, OrderingQuery } from '../http/query.js';
import { Nullable, Timestamp } from '../http/schemas.js';
import { CartItem } from '../items/schemas.js';

export const CartCreateBody = Type.Object({
  store: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'GLN; omitted or null: the customer warehouse',
      }),
    ),
  ),
  organization: Type.String({ minLength: 1, maxLength: 64, description: 'organization_id' }),
  customer_order_number: Type.String({ minLength: 1, maxLength: 100 }),
  order_mark: Type.String({ maxLength: 100 }),
  reference: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: "Omitted: the user's profile reference" })),
  ),
});

export const CartCreated = Type.Object({
  id: Type.Integer(),
  created: Timestamp,
  customer_order_number: Type.String(),
  order_mark: Type.String(),
  organization: Type.String({ description: 'organization_id' }),
  reference: Nullable(Type.String()),
  store: Nullable(Type.String({ description: 'GLN, or null for the customer warehouse' })),
});

export const CheckoutRecord = Type.Object({
  id: Type.Integer(),
  cart: Type.Integer(),
  created: Timestamp,
  order_id: Type.String(),
  order_number: Type.String(),
  timed_out: Type.Boolean({ description: 'Upstream was saturated and queued the order' }),
});

export const Organization = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  created: Timestamp,
  name: Type.String(),
  organization_id: Type.String(),
  parent_code: Type.String(),
});

export const CartListed = Type.Object({
  id: Type.Integer(),
  checkout: Nullable(CheckoutRecord),
  controls: Type.Array(Type.Integer(), { description: 'ids of the controls holding the cart' }),
  created: Timestamp,
  last_activity: Timestamp,
  customer_order_number: Type.String(),
  order_mark: Type.String(),
  reference: Nullable(Type.String()),
  items: Type.Array(CartItem),
  items_count: Type.Integer(),
  total_quantity: Type.Integer(),
  organization: Organization,
  store: Nullable(Type.Object({ created: Timestamp, gln: Type.String(), id: Type.Integer() })),
  user: Type.Object({
    email: Type.String(),
    first_name: Type.String(),
    id: Type.Integer(),
    last_name: Type.String(),
    username: Type.String(),
  }),
  checkout_availability_error: Type.Boolean(),
  checkout_availability_error_at: Nullable(Timestamp),
  has_unlimited_credit: Type.Boolean(),
});

export const ORDERING_KEYS = [
  'created',
  'customer_order_number',
  'items_count',
  'total_quantity',
] as const;

export const CartFilterQuery = {
  active: Type.Optional(BoolQuery),
  created_after: Type.Optional(DateTimeQuery),
  created_before: Type.Optional(DateTimeQuery),
  checkout: Type.Optional(BoolQuery),
  gln: Type.Optional(Type.String({ maxLength: 64 })),
  exclude_warehouse: Type.Optional(BoolQuery),
  checkout_availability_error: Type.Optional(BoolQuery),
  each_user: Type.Optional(BoolQuery),
  user: Type.Optional(IntegerQuery),
};

export const CartListQuery = Type.Object({
  ...CartFilterQuery,
  ...PageQuery,
  ordering: Type.Optional(OrderingQuery(ORDERING_KEYS)),
});

export const CartStatsQuery = Type.Object(CartFilterQuery);
export const CartStats = Type.Object({
  total_quantity: Type.Integer(),
  total_items: Type.Integer(),
});

export const TimeSeriesQuery = Type.Object({
  ...CartFilterQuery,
  interval: Type.Optional(
    Type.Union([Type.Literal('M'), Type.Literal('D'), Type.Literal('H')], {
      description: 'Bucket: M month, D day (default), H hour; UTC',
    }),
  ),
  aggregate: Type.Optional(
    Type.Union([Type.Literal('carts'), Type.Literal('items')], {
      description: 'carts (default): number of carts; items: item lines of those carts',
    }),
  ),
});
export const TimeSeries = Type.Array(Type.Object({ total: Type.Integer(), interval: Timestamp }));
