import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { Nullable } from '../http/schemas.js';

export const OptionSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  public_name: Type.String(),
  type: Type.Integer(),
  value: Type.String(),
  file: Nullable(Type.String({ description: 'file reference as stored, or null' })),
  is_list: Type.Boolean(),
  is_public: Type.Boolean({ description: 'always true here: only public options are listed' }),
});
export type Option = Static<typeof OptionSchema>;

export const OptionListQuerySchema = Type.Object({
  name: Type.Optional(Type.String({ description: 'exact name; empty means no filter' })),
  ...PageQuery,
});
