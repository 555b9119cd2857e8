import type { FastifyRequest } from 'fastify';
import type { App } from '../deps.js';
import { ApiError, errors } from '../http/errors.js';
import { redeemCode } from './codes.js';

/** The user a connection's code was issued to, from the hook to the handler. */
const userOf = new WeakMap<FastifyRequest['raw'], number>();

/**
 * `GET /ws/notifications/?code=<code>`: the notification WebSocket (see
 * `POST /api/v1/websocket-notifications/groups/`). The code is checked in a hook, so a
 * refused connection gets a plain HTTP 401 and no upgrade happens.
 */
export default async function notificationSocketRoutes(app: App): Promise<void> {
  const { database, clock } = app.deps;

  app.get(
    '/ws/notifications/',
    {
      websocket: true,
      preValidation: async (request) => {
        if (!request.ws) {
          throw new ApiError(
            426,
            {
              detail: 'This endpoint only accepts WebSocket connections.',
              code: 'upgrade_required',
            },
            { Upgrade: 'websocket' },
          );
        }
        const { code } = request.query as { code?: unknown };
        if (typeof code !== 'string' || code === '') throw errors.notAuthenticated();
        const userId = await redeemCode(database.db, code, clock.nowMicros());
        if (userId === null) throw errors.tokenNotValid('Connection code not valid or expired.');
        userOf.set(request.raw, userId);
      },
    },
    (socket, request) => {
      const userId = userOf.get(request.raw);
      if (userId === undefined) {
        socket.close(4401, 'Not authenticated');
        return;
      }
      app.deps.notifier?.add(userId, socket);
    },
  );
}
