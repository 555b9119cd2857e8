import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { BoolQuerySchema } from '../http/query.js';
import { TimestampSchema } from '../http/schemas.js';

export const OrganizationSchema = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  created: TimestampSchema,
  name: Type.String(),
  organization_id: Type.String(),
  parent_code: Type.String(),
});
export type Organization = Static<typeof OrganizationSchema>;

export const OrganizationListQuerySchema = Type.Object({
  favorites: Type.Optional(BoolQuerySchema),
  ...PageQuery,
});

export const OrganizationParamsSchema = Type.Object({
  organization_id: Type.String({ minLength: 1, maxLength: 128 }),
});

export const CreditAnswerSchema = Type.Object({
  credit: Type.Boolean({ description: "The user's credit status in that organization" }),
});
