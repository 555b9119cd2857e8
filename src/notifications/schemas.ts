import { type TSchema, Type } from 'typebox';
import { CheckoutRecordSchema } from '../carts/schemas.js';
import { ControlSchema } from '../controls/schemas.js';
import { Nullable, TimestampSchema } from '../http/schemas.js';
import type { NotificationType } from './notifier.js';

/** The answer of `POST websocket-notifications/groups/`: the code that opens the socket. */
export const CodeAnswerSchema = Type.Object({ code: Type.String() });

/** A message of the socket: `{"type", "data", "created"}` (docs/http-contract.md). */
function message<T extends NotificationType, D extends TSchema>(type: T, data: D) {
  return Type.Object({
    type: Type.Literal(type),
    data,
    created: TimestampSchema,
  });
}

/**
 * Each message's schema, by type: what src/notifications/subscribers.ts sends, described in
 * the AsyncAPI document (src/notifications/asyncapi.ts) with the API's own schemas of a
 * checkout and a control.
 */
export const NOTIFICATION_SCHEMAS = {
  'cart.checked_out': message(
    'cart.checked_out',
    Type.Object({ cart: Type.Integer({ description: 'cart id' }), checkout: CheckoutRecordSchema }),
  ),
  'cart.checkout_failed': message(
    'cart.checkout_failed',
    Type.Object({
      cart: Type.Integer({ description: 'cart id' }),
      status: Type.Integer({
        minimum: 400,
        maximum: 599,
        description: 'the HTTP status the checkout answered: 401, 502, 503 or 504',
      }),
      code: Nullable(
        Type.String({ description: "the answer's error code; null when upstream sent none" }),
      ),
    }),
  ),
  'control.created': message('control.created', Type.Object({ control: ControlSchema })),
  'control.verified': message('control.verified', Type.Object({ control: ControlSchema })),
} satisfies Record<NotificationType, TSchema>;
