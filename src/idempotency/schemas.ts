import { type Static, Type } from 'typebox';

/** Longest key (Stripe's bound): longer is a 400 on the header. */
export const MAX_KEY_LENGTH = 255;

/**
 * The optional `Idempotency-Key` header of the creating writes (`POST carts/`, `items/`,
 * `shopping-lists/`, `shopping-list-items/`). Header names arrive lower-cased.
 */
export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_KEY_LENGTH,
      description:
        'Makes a retry safe (as Stripe defines it): a repeat by the same user with the same ' +
        'key and the same request within 24 hours answers the first answer (status and body, ' +
        'with `Idempotent-Replayed: true`) and changes nothing, also while the first is still ' +
        'running. The same key with another request (operation or body) is 422 ' +
        '`idempotency_key_reused`; more than 255 characters is a 400 on the header. Only ' +
        'successful answers are kept: after an error the key is unused. A UUID per request ' +
        'does.',
    }),
  ),
});
export type IdempotencyHeaders = Static<typeof IdempotencyHeadersSchema>;
