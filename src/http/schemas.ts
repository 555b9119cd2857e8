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

/**
 * The error bodies of docs/http-contract.md, for the OpenAPI document (src/http/openapi.ts).
 * Error answers are serialized with JSON.stringify (sendApiError), never through these.
 */
export const ErrorDetailSchema = Type.Object(
  {
    detail: Type.String(),
    code: Type.String({ examples: ['not_found'] }),
  },
  { title: 'ErrorDetail' },
);

/** `{"<field>": ["message", …]}`; `non_field_errors` for errors of no single field. */
export const FieldErrorsSchema = Type.Object(
  {},
  {
    title: 'FieldErrors',
    additionalProperties: Type.Array(Type.String()),
    examples: [{ quantity: ['Ensure this value is greater than or equal to 1.'] }],
  },
);

/** The upstream system's own 503 JSON, passed through as it came (the checkout). */
export const UpstreamAnswerSchema = Type.Object(
  {},
  { title: 'UpstreamAnswer', additionalProperties: true },
);

/**
 * A success answer without a body (201/202 of the restore routes, 204 of deletes): handlers
 * call `send()` with nothing, which Fastify sends without serializing.
 */
export const NoBodySchema = Type.Unsafe<undefined>(Type.Null({ description: 'No body.' }));
