import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import {
  BoolQuerySchema,
  DateTimeQuerySchema,
  IntegerQuerySchema,
  OrderingQuery,
} from '../http/query.js';
import { Nullable, TimestampSchema } from '../http/schemas.js';

/** Ids are 32-bit: a larger number can name no row (and would overflow the column). */
const idRange = { minimum: 1, maximum: 2_147_483_647 };

export const ControlStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('verified')]);
export type ControlStatus = Static<typeof ControlStatusSchema>;

export const ControlCreateBodySchema = Type.Object({
  user: Type.Integer({ ...idRange, description: 'id of the user whose carts are controlled' }),
  store: Type.Integer({ ...idRange, description: 'store id (a user may have carts in several)' }),
  status: ControlStatusSchema,
});
export type ControlCreateBody = Static<typeof ControlCreateBodySchema>;

export const ControlUpdateBodySchema = Type.Object({
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified')], {
    description: 'Only `verified` is a valid target',
  }),
});

/** The properties the create and the update forms share (not a schema). */
const commonFields = {
  id: Type.Integer(),
  created: TimestampSchema,
  verified_at: Nullable(TimestampSchema),
  is_random: Type.Boolean(),
  status: ControlStatusSchema,
  user: Type.Integer({ description: 'id of the user the control refers to' }),
};

/** The create form, also used by the list and the detail (and by notifications). */
export const ControlSchema = Type.Object({
  ...commonFields,
  store: Type.Integer({ description: 'store id' }),
  carts: Type.Array(Type.Integer(), { description: 'ids of the controlled carts, ascending' }),
  controller: Nullable(
    Type.Integer({ description: 'id of the admin who created it; null for random controls' }),
  ),
});
export type Control = Static<typeof ControlSchema>;

/** The update form of docs/http-contract.md: one `cart` in place of `carts`, no store or controller. */
export const ControlUpdatedSchema = Type.Object({
  ...commonFields,
  cart: Nullable(Type.Integer({ description: 'the lowest cart id of the control' })),
});
export type ControlUpdated = Static<typeof ControlUpdatedSchema>;

export const ORDERING_KEYS = ['created'] as const;

export const ControlListQuerySchema = Type.Object({
  status: Type.Optional(ControlStatusSchema),
  store: Type.Optional(IntegerQuerySchema),
  user: Type.Optional(IntegerQuerySchema),
  is_random: Type.Optional(BoolQuerySchema),
  // The dashboard's controls of a period (issue 32), as the audit trail's filters.
  created_after: Type.Optional(DateTimeQuerySchema),
  created_before: Type.Optional(DateTimeQuerySchema),
  ordering: Type.Optional(OrderingQuery(ORDERING_KEYS)),
  ...PageQuery,
});
export type ControlListQuery = Static<typeof ControlListQuerySchema>;

/** The control figures' filters: the list's store and period (issue 32). */
export const ControlStatsQuerySchema = Type.Object({
  store: Type.Optional(IntegerQuerySchema),
  created_after: Type.Optional(DateTimeQuerySchema),
  created_before: Type.Optional(DateTimeQuerySchema),
  // True: each store's figures too (`stores`), for the dashboard's comparison.
  by_store: Type.Optional(BoolQuerySchema),
});
export type ControlStatsQuery = Static<typeof ControlStatsQuerySchema>;

const counted = (description: string) => Type.Integer({ minimum: 0, description });

/** Controls of one kind by outcome: all created, and of those verified, rejected, pending. */
export const ControlCountsSchema = Type.Object({
  created: counted('controls created in the period (whatever became of them)'),
  verified: counted('of those, verified'),
  rejected: counted('of those, rejected (no longer listed by GET controls/)'),
  pending: counted('of those, still pending'),
});
export type ControlCounts = Static<typeof ControlCountsSchema>;

/** Random (drawn at checkout) and chosen (created by an administrator), apart. */
const kinds = {
  random: ControlCountsSchema,
  chosen: ControlCountsSchema,
};

export const ControlStoreStatsSchema = Type.Object({
  store: Type.Integer({ description: 'store id' }),
  ...kinds,
});
export type ControlStoreStats = Static<typeof ControlStoreStatsSchema>;

export const ControlStatsSchema = Type.Object({
  ...kinds,
  stores: Nullable(
    Type.Array(ControlStoreStatsSchema, {
      description:
        'With `by_store=True`: each store with at least one control created in the period, ' +
        'by store id (a store left out had none); otherwise null',
    }),
  ),
});
export type ControlStats = Static<typeof ControlStatsSchema>;
