import { Type } from 'typebox';
import { Nullable } from '../http/schemas.js';

/**
 * The answers of docs/erp-contract.md that the client checks (src/upstream/shape.ts) before it
 * returns them: an answer that does not fit is a `bad_response` failure (502). The routes
 * that pass an answer through use the same schema as their response schema (the catalogue,
 * shipments): Fastify's serializer then writes only the fields listed here, so whatever else
 * upstream sends never reaches a client.
 */

const Decimal = (description?: string) =>
  Type.String({ description: description ?? 'Decimal amount as a string, e.g. "12.90"' });

/** Arrays the contract does not describe further: passed through as upstream sends them. */
const AnyArraySchema = Type.Array(Type.Unknown());

export const ProductSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  article_number: Type.String(),
  name: Type.String(),
  description: Type.String(),
  ean: Type.String(),
  supply_group: Type.String(),
  discontinued: Type.Boolean(),
  tradepoint: Type.String(),
  product_slug: Type.String(),
  variant_slug: Type.String(),
  assortment_ids: Type.Array(Type.String()),
  campaign_ids: AnyArraySchema,
  classifications: AnyArraySchema,
  assets: AnyArraySchema,
  filter_tags: Type.Array(Type.String()),
  images: Type.Array(Type.Object({ asset_url: Type.String(), asset_type: Type.String() })),
  attributes: Type.Array(
    Type.Object({
      attribute_value: Type.String(),
      attribute_name: Type.String(),
      attribute_label: Type.String(),
      sort: Type.Integer(),
    }),
  ),
});

export const ProductPriceSchema = Type.Object({
  article_number: Type.String(),
  net_price: Decimal(),
  price_type: Type.String(),
  sales_price: Decimal(),
  customer_discount_price: Decimal(),
  pre_campaign_price: Decimal(),
  sales_price_unit: Type.String(),
  ask_for_price: Type.Boolean(),
  discounts: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String(),
      percentage: Decimal('Decimal percentage as a string, e.g. "12.50"'),
      amount: Decimal(),
    }),
  ),
  discount_amount: Decimal(),
  discount_percentage: Decimal('Decimal percentage as a string, e.g. "12.50"'),
  alloying_price: Decimal(),
  alloying_unit: Type.String(),
  alloying_amount: Decimal(),
});

export const ProductStockSchema = Type.Object({
  location_id: Type.String(),
  availability_date: Nullable(Type.String()),
  availability_date_iso: Nullable(Type.String()),
  quantity: Type.Integer(),
  sub_availabilities: AnyArraySchema,
  order_multiple: Type.Integer(),
  stocked: Type.Boolean(),
  available_from_days: Nullable(Type.Integer()),
  available_to_days: Nullable(Type.Integer()),
  availability: Type.String({ description: 'Colour-coded availability level' }),
});

/** A category tree node; leaves have no `children`. Recursive through `$ref`. */
export const CategorySchema = Type.Cyclic(
  {
    CatalogueCategory: Type.Object({
      id: Type.String(),
      name: Type.String(),
      slug: Type.String({ description: 'Path-like, levels separated by "/"' }),
      sort: Type.Optional(Type.Integer()),
      children: Type.Optional(Type.Array(Type.Ref('CatalogueCategory'))),
    }),
  },
  'CatalogueCategory',
);

export const CategoryTreesSchema = Type.Array(CategorySchema);

export const ShipmentSchema = Type.Object({
  RefNo: Type.String(),
  YourRefNo: Type.String(),
  SId: Type.String(),
  SService: Type.String(),
  SStatusTxt: Type.String(),
  CSTrURL: Nullable(Type.String()),
  PortalTrURL: Type.String({ description: 'Tracking link' }),
  SKey: Type.String(),
  SStatusDTime: Type.String({ description: '`YYYY-MM-DD HH:MM`' }),
});

export const ShipmentsSchema = Type.Array(ShipmentSchema);

/** The user's credit status in an organization. */
export const CreditAnswerSchema = Type.Object({ credit: Type.Boolean() });

/**
 * One line of text: no control character (C0, DEL, C1). No name, number, code or address
 * the ERP sends holds one, and a line break in a stored e-mail address or name would reach
 * mail headers, exports and the console as written.
 */
const ONE_LINE = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

/**
 * Text the service stores from upstream (users, organizations, order answers): bounded, one
 * line, and PostgreSQL must be able to store it as sent (no NUL, no unpaired surrogate:
 * checked by `shapeCheck`'s `storable` walk, which a pattern cannot express; the driver
 * would store a lone surrogate as U+FFFD, a value upstream never sent). The columns are
 * `text`: the bounds are the service's own, the same as where the service takes the value
 * from a client (`username` 150, `email` 254, `organization_id` 128), else 1024.
 */
const Stored = (options: { minLength?: number; maxLength?: number } = {}) =>
  Type.String({ maxLength: 1024, pattern: ONE_LINE, ...options });

/**
 * An id the service later puts in an upstream path (`/organizations/{id}/credit`): one
 * segment, so neither empty nor `.`/`..` (src/upstream/client.ts, `segment`); at most the
 * 128 characters `organizations/{organization_id}/` takes.
 */
const SegmentId = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^(?!\\.{1,2}$)[^\\u0000-\\u001f\\u007f-\\u009f]*$',
});

/** An e-mail address as the service takes one from a client (RFC 5321: 254). */
const StoredEmail = Stored({ maxLength: 254 });

export const UpstreamOrganizationSchema = Type.Object({
  organization_id: SegmentId,
  code: Type.Optional(Stored()),
  name: Type.Optional(Stored()),
  parent_code: Type.Optional(Stored()),
  has_unlimited_credit: Type.Optional(Type.Boolean()),
});

/** `GET /me`: the profile a login stores (user and memberships). */
export const UpstreamProfileSchema = Type.Object({
  username: Stored({ minLength: 1, maxLength: 150 }),
  email: Type.Optional(StoredEmail),
  first_name: Type.Optional(Stored()),
  last_name: Type.Optional(Stored()),
  telephone: Type.Optional(Stored()),
  reference: Type.Optional(Nullable(Stored())),
  organizations: Type.Array(UpstreamOrganizationSchema, { maxItems: 1000 }),
});

/** `GET /admin/users/{username}`: a user the restore flow mails. */
export const UpstreamAdminUserSchema = Type.Object({
  username: Stored({ minLength: 1, maxLength: 150 }),
  email: StoredEmail,
});

/** `GET /admin/users?email=`. */
export const UpstreamAdminUsersSchema = Type.Array(UpstreamAdminUserSchema, { maxItems: 1000 });

/**
 * `POST /orders` answered 201 or 202: the order's id and number, stored in the Checkout
 * record and shown to the customer and staff. Never empty; 255 characters is far beyond any
 * ERP's numbering. An answer that does not fit means an order was placed whose answer cannot
 * be stored (decision 0001).
 */
const OrderRef = Stored({ minLength: 1, maxLength: 255 });

export const UpstreamOrderSchema = Type.Object({
  order_id: OrderRef,
  order_number: OrderRef,
});
