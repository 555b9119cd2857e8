import { DatabaseReadOnly } from '../db/errors.js';
import type { App } from '../deps.js';

/** A database that does not answer the readiness ping within this time is not ready. */
export const READY_TIMEOUT_MS = 2000;

/**
 * Liveness and readiness for load balancers; no token needed. `/readyz` answers 200 only
 * while the database answers and can write: during a failover (a standby, a demoted primary
 * behind a stale endpoint) the instance is not ready, though it is alive. `/healthz` answers 200 until
 * the process ends, draining included: the process is alive and finishing its work.
 */
export default async function healthRoutes(app: App): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    // 404, not 503: HAProxy's `http-check disable-on-404` stops sending new work at the first
    // such check and keeps the connections it has (see deploy/haproxy/haproxy.cfg); any
    // other balancer sees a failed check.
    if (app.lifecycle.draining) {
      return reply.code(404).send({ status: 'draining', detail: 'shutting down' });
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        app.deps.database.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('ping timed out')), READY_TIMEOUT_MS);
        }),
      ]);
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not ready');
      const detail =
        error instanceof DatabaseReadOnly ? 'database read-only' : 'database unreachable';
      return reply.code(503).send({ status: 'unavailable', detail });
    } finally {
      clearTimeout(timer);
    }
  });
}
