import type { FastifyRequest } from 'fastify';
import type { App } from '../deps.js';
import { ApiError, errors } from '../http/errors.js';
import { serviceBase } from '../http/links.js';
import { type CodeOwner, redeemCode } from './codes.js';
import { SESSION_ENDED_CLOSE } from './notifier.js';

/** The user and session a connection's code was issued to, from the hook to the handler. */
const ownerOf = new WeakMap<FastifyRequest['raw'], CodeOwner>();

/** How long a client refused for a full instance waits before it tries again. */
const FULL_RETRY_AFTER_SECONDS = 5;
/** WebSocket's own "Try Again Later" (RFC 6455 registry): the instance filled up meanwhile. */
export const TRY_AGAIN_LATER = 1013;

/**
 * `GET /ws/notifications/?code=<code>`: the notification WebSocket (see
 * `POST /api/v1/websocket-notifications/groups/`). The code is checked in a hook, so a
 * refused connection gets a plain HTTP 401 and no upgrade happens.
 */
export default async function notificationSocketRoutes(app: App): Promise<void> {
  const { database, clock, config } = app.deps;
  const allowed = new Set(config.wsAllowedOrigins);
  /**
   * A browser sends `Origin` with every WebSocket handshake and a page cannot forge it: one
   * from another site is refused (ASVS 4.4.2). No `Origin` (mobile apps, server clients) is
   * let through; the service's own origin (PUBLIC_URL's, else the address it listens on; the
   * console is served from it) and WS_ALLOWED_ORIGINS are allowed. Never compared with
   * `Host`: a header the client writes does not decide what is "own".
   */
  const originAllowed = (request: FastifyRequest): boolean => {
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    if (allowed.has(origin)) return true;
    return origin === new URL(serviceBase(app, request.socket.localAddress)).origin;
  };
  const full = () => (app.deps.notifier?.total() ?? 0) >= config.wsMaxConnections;

  app.get(
    '/ws/notifications/',
    {
      websocket: true,
      // The URL holds a connection code: a refusal is never stored either.
      config: { noStore: true },
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
        // Before anything else, the code included: a refused page does not spend it.
        if (!originAllowed(request)) throw errors.originNotAllowed();
        const { code } = request.query as { code?: unknown };
        if (typeof code !== 'string' || code === '') throw errors.notAuthenticated();
        // Before the code is spent: the client may use it again once there is room.
        if (full()) throw errors.tooManyConnections(FULL_RETRY_AFTER_SECONDS);
        const owner = await redeemCode(database.db, code, clock.nowMicros());
        if (owner === null) throw errors.tokenNotValid('Connection code not valid or expired.');
        ownerOf.set(request.raw, owner);
      },
    },
    (socket, request) => {
      const owner = ownerOf.get(request.raw);
      if (owner === undefined) {
        socket.close(SESSION_ENDED_CLOSE, 'Not authenticated');
        return;
      }
      // Connections accepted together may pass the check above together: the cap holds here.
      if (full()) {
        socket.close(TRY_AGAIN_LATER, 'Too many connections, try again later');
        return;
      }
      app.deps.notifier?.add(owner.userId, socket, config.wsMaxPerUser, owner.sessionGeneration, {
        staff: owner.staff,
      });
    },
  );
}
