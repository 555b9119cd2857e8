import { type TSchema, Type } from 'typebox';

/** `2026-03-01T09:15:02.123456Z`: always six fractional digits and `Z`. */
export const TimestampSchema = Type.String({
  format: 'date-time',
  examples: ['2026-03-01T09:15:02.123456Z'],
});

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export const IdParamsSchema = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,9}$' }) });
