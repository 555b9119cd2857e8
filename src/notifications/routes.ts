import type { App } from '../deps.js';
import { currentUser } from '../http/auth.js';
import { issueCode } from './codes.js';
import { CodeAnswerSchema } from './schemas.js';

const tags = ['notifications'];

export default async function notificationRoutes(app: App): Promise<void> {
  const { database, clock, config } = app.deps;

  app.post(
    '/websocket-notifications/groups/',
    {
      schema: {
        tags,
        operationId: 'createNotificationCode',
        summary: 'A code to open the notification WebSocket',
        description:
          'No body. Answers 201 `{code}`: a random code bound to the caller, valid for ' +
          '`WS_CODE_TTL_SECONDS` (default 300 s) and good for ONE connection (it is spent ' +
          'when the connection is accepted; ask for a new code to reconnect). Connect with ' +
          '`GET /ws/notifications/?code=<code>` (WebSocket upgrade, outside /api/v1). ' +
          'An unknown, expired or spent code is refused before the upgrade with HTTP 401 ' +
          '`{"detail", "code": "token_not_valid"}` (no code: 401 `not_authenticated`); a ' +
          'request without an upgrade is 426. Messages are JSON text frames ' +
          '`{"type", "data", "created"}`: `cart.checked_out` `{cart, checkout}` (the ' +
          'Checkout record), `cart.checkout_failed` `{cart, status, code}` (the HTTP status ' +
          'and error code the checkout answered after an upstream failure: 401, 502, 503 or ' +
          '504; `code` null when upstream sent none), `control.created` and ' +
          '`control.verified` `{control}` (as `GET controls/{id}/` answers it). ' +
          "`cart.checked_out` reaches the cart's owner and every staff user and admin; " +
          '`control.created` reaches the controlled user and every staff user and admin; ' +
          '`cart.checkout_failed` and `control.verified` reach only the user concerned. ' +
          'Each message reaches every open connection of its recipients, on whichever ' +
          'instance it is. Delivery is best effort: there is no replay of ' +
          'messages sent while a client was not connected. The server pings every 30 s and ' +
          'drops a connection that did not answer the previous ping (standard WebSocket ' +
          'clients answer pings on their own). A user holds at most `WS_MAX_PER_USER` ' +
          '(default 10) connections on one instance: a newer one closes the oldest with code ' +
          '4429 (too many connections). An instance holds at most `WS_MAX_CONNECTIONS` ' +
          '(default 2000): past it the upgrade is refused with HTTP 503 ' +
          '`{"detail", "code": "too_many_connections"}` and `Retry-After` (the code is not ' +
          'spent), or, for connections accepted together, the socket is closed with 1013 ' +
          '(try again later). On shutdown connections are closed with ' +
          'code 1001 (going away): reconnect with a new code.',
        response: { 201: CodeAnswerSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const code = await issueCode(
        database.db,
        user.id,
        user.sessionGeneration,
        clock.nowMicros(),
        config.wsCodeTtlSeconds,
      );
      return reply.code(201).send({ code });
    },
  );
}
