import { Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { BoolQuery } from '../http/query.js';

export { Organization } from '../carts/schemas.js';

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
