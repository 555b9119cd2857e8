import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { BoolQuery } from '../http/query.js';
import { Timestamp } from '../http/schemas.js';

/** An organization as the list answers it, and as a cart shows its own. */
export const OrganizationSchema = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  created: Timestamp,
  name: Type.String(),
  organization_id: Type.String(),
  parent_code: Type.String(),
});
export type Organization = Static<typeof OrganizationSchema>;

export const OrganizationListQuery = Type.Object({
  favorites: Type.Optional(BoolQuery),
  ...PageQuery,
});

export const OrganizationParams = Type.Object({
  organization_id: Type.String({ minLength: 1, maxLength: 128 }),
});

export const CreditAnswer = Type.Object({
  credit: Type.Boolean({ description: "The user's credit status in that organization" }),
});
