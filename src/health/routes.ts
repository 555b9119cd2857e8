import type { App } from '../app.js';

/** Liveness and readiness for load balancers; no token needed. */
export default async function healthRoutes(app: App): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await app.deps.database.ping();
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', detail: 'database unreachable' });
    }
  });
}
