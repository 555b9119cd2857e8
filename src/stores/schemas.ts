import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { Nullable, TimestampSchema } from '../http/schemas.js';

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const MAX_INT = 2_147_483_647;

export const StoreSchema = Type.Object({
  id: Type.Integer(),
  gln: Type.String(),
  name: Type.String(),
  active_period: Type.String({
    description: 'Duration `HH:MM:SS`; hours may exceed 23',
    examples: ['02:00:00'],
  }),
  carts_for_random_control: Type.Integer({
    description: 'N: a checkout draws a random control with probability 1/N; 0 disables',
  }),
  created: TimestampSchema,
});
export type Store = Static<typeof StoreSchema>;

export const GlnParamsSchema = Type.Object({ gln: Type.String({ minLength: 1, maxLength: 64 }) });

export const StoreListQuerySchema = Type.Object({ ...PageQuery });

export const StoreUpdateBodySchema = Type.Object({
  active_period: Type.Optional(
    Type.String({ description: '`HH:MM:SS` or `HH:MM`; hours may exceed 23' }),
  ),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  carts_for_random_control: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_INT })),
});
export type StoreUpdateBody = Static<typeof StoreUpdateBodySchema>;

export const StoreHourSchema = Type.Object({
  weekday: Type.Enum(WEEKDAYS, { description: '`monday` … `sunday`' }),
  opening_time: Nullable(Type.String({ examples: ['07:00:00'] })),
  closing_time: Nullable(Type.String({ examples: ['18:00:00'] })),
});
export type StoreHour = Static<typeof StoreHourSchema>;

/** A store's week: seven entries, Monday first. */
export const StoreHoursSchema = Type.Array(StoreHourSchema);

/**
 * `HH:MM` or `HH:MM:SS`, or null (closed). OpenAPI 3.0 `nullable` (Ajv knows it) rather than
 * a union, so a bad value gets one message instead of one per branch.
 */
const TimeInputSchema = Type.Unsafe<string | null>({
  type: 'string',
  nullable: true,
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$',
  errorMessage: 'Enter a valid time: HH:MM or HH:MM:SS.',
  description: '`HH:MM` or `HH:MM:SS`; null: closed',
  examples: ['07:00'],
});

export const StoreHoursBodySchema = Type.Array(
  Type.Object({
    weekday: Type.Enum(WEEKDAYS, { description: '`monday` … `sunday`' }),
    opening_time: TimeInputSchema,
    closing_time: TimeInputSchema,
  }),
  { maxItems: WEEKDAYS.length },
);
export type StoreHoursBody = Static<typeof StoreHoursBodySchema>;
