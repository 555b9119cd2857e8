import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import {
  BoolQuerySchema,
  DateTimeQuerySchema,
  IntegerQuerySchema,
  OrderingQuery,
} from '../http/query.js';
import { Nullable, TimestampSchema } from '../http/schemas.js';
import { CartItemSchema } from '../items/schemas.js';
import { OrganizationSchema } from '../organizations/schemas.js';

export const CartCreateBodySchema = Type.Object({
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
export type CartCreateBody = Static<typeof CartCreateBodySchema>;

export const CartCreatedSchema = Type.Object({
  id: Type.Integer(),
  created: TimestampSchema,
  customer_order_number: Type.String(),
  order_mark: Type.String(),
  organization: Type.String({ description: 'organization_id' }),
  reference: Nullable(Type.String()),
  store: Nullable(Type.String({ description: 'GLN, or null for the customer warehouse' })),
});
export type CartCreated = Static<typeof CartCreatedSchema>;

export const CheckoutRecordSchema = Type.Object({
  id: Type.Integer(),
  cart: Type.Integer(),
  created: TimestampSchema,
  order_id: Type.String(),
  order_number: Type.String(),
  timed_out: Type.Boolean({ description: 'Upstream was saturated and queued the order' }),
});
export type CheckoutRecord = Static<typeof CheckoutRecordSchema>;

/** The checkout takes no body (anything sent is ignored). */
export const CheckoutBodySchema = Type.Optional(Type.Unknown());

export const CartListedSchema = Type.Object({
  id: Type.Integer(),
  checkout: Nullable(CheckoutRecordSchema),
  controls: Type.Array(Type.Integer(), { description: 'ids of the controls holding the cart' }),
  created: TimestampSchema,
  last_activity: TimestampSchema,
  customer_order_number: Type.String(),
  order_mark: Type.String(),
  reference: Nullable(Type.String()),
  items: Type.Array(CartItemSchema),
  items_count: Type.Integer(),
  total_quantity: Type.Integer(),
  organization: OrganizationSchema,
  store: Nullable(
    Type.Object({ created: TimestampSchema, gln: Type.String(), id: Type.Integer() }),
  ),
  user: Type.Object({
    email: Type.String(),
    first_name: Type.String(),
    id: Type.Integer(),
    last_name: Type.String(),
    username: Type.String(),
  }),
  checkout_availability_error: Type.Boolean(),
  checkout_availability_error_at: Nullable(TimestampSchema),
  has_unlimited_credit: Type.Boolean(),
});
export type CartListed = Static<typeof CartListedSchema>;

export const ORDERING_KEYS = [
  'created',
  'last_activity',
  'customer_order_number',
  'items_count',
  'total_quantity',
] as const;

/** The filters of the cart list, stats and time series (properties, not a schema). */
export const cartFilterFields = {
  active: Type.Optional(BoolQuerySchema),
  created_after: Type.Optional(DateTimeQuerySchema),
  created_before: Type.Optional(DateTimeQuerySchema),
  checkout: Type.Optional(BoolQuerySchema),
  gln: Type.Optional(Type.String({ maxLength: 64 })),
  exclude_warehouse: Type.Optional(BoolQuerySchema),
  checkout_availability_error: Type.Optional(BoolQuerySchema),
  each_user: Type.Optional(BoolQuerySchema),
  user: Type.Optional(IntegerQuerySchema),
};

export const CartListQuerySchema = Type.Object({
  ...cartFilterFields,
  ...PageQuery,
  ordering: Type.Optional(OrderingQuery(ORDERING_KEYS)),
});

export const CartStatsQuerySchema = Type.Object(cartFilterFields);
/** The filters alone (the list and time-series queries hold them too). */
export type CartFilters = Static<typeof CartStatsQuerySchema>;

export const CartStatsSchema = Type.Object({
  total_quantity: Type.Integer(),
  total_items: Type.Integer(),
});
export type CartStats = Static<typeof CartStatsSchema>;

export const TimeSeriesQuerySchema = Type.Object({
  ...cartFilterFields,
  interval: Type.Optional(
    Type.Union([Type.Literal('M'), Type.Literal('W'), Type.Literal('D'), Type.Literal('H')], {
      description: 'Bucket: M month, W week (from Monday), D day (default), H hour; UTC',
    }),
  ),
  aggregate: Type.Optional(
    Type.Union([Type.Literal('carts'), Type.Literal('items')], {
      description: 'carts (default): number of carts; items: item lines of those carts',
    }),
  ),
});
export type TimeSeriesQuery = Static<typeof TimeSeriesQuerySchema>;

export const TimeSeriesEntrySchema = Type.Object({
  total: Type.Integer(),
  interval: TimestampSchema,
});
export const TimeSeriesSchema = Type.Array(TimeSeriesEntrySchema);
export type TimeSeries = Static<typeof TimeSeriesSchema>;
