import { createHash, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { App, Deps } from '../deps.js';
import type { AppEventBus } from '../events/app-events.js';
import { errors } from '../http/errors.js';
import { Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when metrics are served (METRICS_TOKEN or METRICS_PORT). */
    metrics: Metrics | undefined;
    /** With METRICS_PORT: the address of the metrics listener, once the app is ready. */
    metricsUrl: string | undefined;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `Bearer <token>` equal to the configured token, compared in constant time. */
function tokenMatches(header: string | undefined, expected: Buffer): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), expected);
}

/**
 * `GET /metrics` in Prometheus' text format, never in public: with METRICS_PORT on a
 * listener of its own bound to 127.0.0.1 (and not on the service's port), else on the
 * service's port with `Authorization: Bearer <METRICS_TOKEN>`. With neither, nothing is
 * collected or served (404).
 */
export function installMetrics(app: App, deps: Deps, events: AppEventBus): void {
  const { metricsToken, metricsPort } = deps.config;
  app.decorate('metrics', undefined);
  app.decorate('metricsUrl', undefined);
  if (metricsToken === undefined && metricsPort === undefined) return;
  const metrics = new Metrics(app, deps, events);
  app.metrics = metrics;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request, reply);
    done();
  });
  app.addHook('onClose', async () => metrics.close());
  const expected = metricsToken === undefined ? undefined : digest(metricsToken);

  if (metricsPort === undefined) {
    app.get(
      '/metrics',
      { schema: { hide: true }, config: { auth: 'public' } },
      async (request, reply) => {
        if (!request.headers.authorization) throw errors.notAuthenticated();
        if (!tokenMatches(request.headers.authorization, expected!)) throw errors.tokenNotValid();
        const text = await metrics.registry.metrics();
        return reply.type(metrics.registry.contentType).send(text);
      },
    );
    return;
  }

  let server: Server | undefined;
  app.addHook('onReady', async () => {
    server = createServer((request, response) => {
      serveMetrics(metrics, expected, request).then(
        ({ status, type, text }) => {
          response.writeHead(status, { 'content-type': type }).end(text);
        },
        (error) => {
          app.log.error({ err: error }, 'metrics scrape failed');
          response.writeHead(500).end();
        },
      );
    });
    server.listen(metricsPort, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    const port = address && typeof address === 'object' ? address.port : metricsPort;
    app.metricsUrl = `http://127.0.0.1:${port}/metrics`;
    app.log.info({ url: app.metricsUrl }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
  });
}

const JSON_TYPE = 'application/json; charset=utf-8';

async function serveMetrics(
  metrics: Metrics,
  expected: Buffer | undefined,
  request: IncomingMessage,
): Promise<{ status: number; type: string; text: string }> {
  const path = (request.url ?? '').split('?')[0];
  if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
    return { status: 404, type: JSON_TYPE, text: JSON.stringify(errors.notFound().body) };
  }
  if (expected && !tokenMatches(request.headers.authorization, expected)) {
    return { status: 401, type: JSON_TYPE, text: JSON.stringify(errors.tokenNotValid().body) };
  }
  return {
    status: 200,
    type: metrics.registry.contentType,
    text: await metrics.registry.metrics(),
  };
}
