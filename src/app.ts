import { randomUUID } from 'node:crypto';
// First: names the API's schemas (their `title`) before any route is declared with them.
import './api-components.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import auditRoutes from './audit/routes.js';
import authRoutes from './auth/routes.js';
import { TokenService } from './auth/tokens.js';
import cartRoutes from './carts/routes.js';
import catalogueRoutes from './catalogue/routes.js';
import consoleRoutes from './console/routes.js';
import { subscribeRandomControls } from './controls/random.js';
import controlRoutes from './controls/routes.js';
import type { App, Deps, Lifecycle } from './deps.js';
import type { AppEvents } from './events/app-events.js';
import { EventBus } from './events/bus.js';
import healthRoutes from './health/routes.js';
import { installAuth } from './http/auth.js';
import { trustFunction } from './http/client-address.js';
import { frameworkErrors, installConventions } from './http/conventions.js';
import { installCors } from './http/cors.js';
import { linkBase } from './http/links.js';
import { installNoStore } from './http/no-store.js';
import { API_TAGS, collectRouteFacts, completeDocument, SECURITY_SCHEMES } from './http/openapi.js';
import { parseQueryString } from './http/query.js';
import { installRequestScope } from './http/request-scope.js';
import { docsCsp, installSecurityHeaders } from './http/security-headers.js';
import {
  closeAfterEarlyAnswers,
  closeQuietConnectionsOnClose,
  slowClientOptions,
} from './http/slow-clients.js';
import itemRoutes from './items/routes.js';
import { installMetrics } from './metrics/routes.js';
import { ASYNCAPI_PATH, asyncApiDocument } from './notifications/asyncapi.js';
import { GOING_AWAY_CLOSE, Notifier } from './notifications/notifier.js';
import notificationRoutes from './notifications/routes.js';
import notificationSocketRoutes from './notifications/socket.js';
import { subscribeNotifications } from './notifications/subscribers.js';
import optionRoutes from './options/routes.js';
import organizationRoutes from './organizations/routes.js';
import { sessionGenerations } from './protections/sessions.js';
import { isLimitHook } from './protections/throttle.js';
import scoreRoutes from './scores/routes.js';
import shoppingListRoutes from './shopping-lists/routes.js';
import storeRoutes from './stores/routes.js';
import { installTracing } from './tracing/http.js';
import { traceFields, tracingOn } from './tracing/spans.js';
import userRoutes, { restorePageRoutes } from './users/routes.js';

/** Secrets never reach a log line: tokens and codes in headers, URLs and bodies. */
function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:code|token)=)[^&]*/gi, '$1[redacted]')
    .replace(/(restore-password\/)[^/?]+/g, '$1[redacted]');
}

export interface AppOptions {
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
}

export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<App> {
  const { config } = deps;
  const loggerOption = options.logger ?? { level: config.logLevel };
  const app = Fastify({
    logger:
      loggerOption === false
        ? false
        : {
            level: loggerOption === true ? config.logLevel : loggerOption.level,
            ...(typeof loggerOption === 'object' && loggerOption.stream
              ? { stream: loggerOption.stream }
              : {}),
            // With tracing on, each line carries the trace_id and span_id it belongs to.
            ...(tracingOn() ? { mixin: traceFields } : {}),
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers["authorization-upstream"]',
                'req.headers.cookie',
                '*.password',
                '*.token',
              ],
              censor: '[redacted]',
            },
            serializers: {
              req: (request) => ({
                method: request.method,
                url: redactUrl(request.url),
                remoteAddress: request.ip,
              }),
            },
          },
    // A client's X-Request-Id is kept only when it is a plain token of sane length: it goes
    // into every log line and back into the answer.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    // Who wrote X-Forwarded-For: only the hops TRUST_PROXY names are believed.
    trustProxy: trustFunction(config.trustProxy),
    bodyLimit: config.bodyLimit,
    return503OnClosing: true,
    frameworkErrors,
    forceCloseConnections: 'idle',
    // Slow clients: bounds on receiving a request and on idle kept-alive connections.
    ...slowClientOptions(config),
    routerOptions: {
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      maxParamLength: 200,
      querystringParser: parseQueryString,
    },
    ajv: {
      customOptions: { coerceTypes: false, allErrors: true, verbose: true, removeAdditional: true },
      plugins: [
        // biome-ignore lint/suspicious/noExplicitAny: Ajv is not a direct dependency
        (ajv: any) => {
          ajv.addKeyword('errorMessage');
          return ajv;
        },
      ],
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Before any hook or route: @fastify/otel wraps the routes defined after it.
  await installTracing(app, trustFunction(config.trustProxy));

  deps.notifier ??= new Notifier({
    redisUrl: config.redisUrl,
    heartbeatMs: config.wsHeartbeatSeconds * 1000,
  });
  const { notifier } = deps;
  notifier.log ??= app.log;
  notifier.generations ??= (ids) => sessionGenerations(deps.database.db, ids);
  app.decorate('deps', deps);
  // One bus per app (two apps may share deps). Subscribers run in this order: notifications
  // first, so a client hears `cart.checked_out` before the `control.created` of its draw.
  const events = new EventBus<AppEvents>(app.log);
  subscribeNotifications(events, deps);
  subscribeRandomControls(events, deps);
  app.decorate('events', events);
  const tokens = new TokenService(
    config.jwtSecret,
    config.jwtTtlSeconds,
    config.jwtRefreshWindowSeconds,
    deps.clock,
  );
  app.decorate('tokens', tokens);

  // While draining, answers end their connection: the balancer opens a new one for its next
  // request, to whichever instance is ready, and idle connections are left alone (closing one
  // the balancer is about to use would cut a request). While closing, answers in flight end
  // their connection too: a kept-alive socket would hold server.close() (and the process)
  // until the keep-alive timeout.
  const lifecycle: Lifecycle = { draining: false };
  app.decorate('lifecycle', lifecycle);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing || lifecycle.draining) reply.header('connection', 'close');
  });

  installMetrics(app, deps, events);
  closeAfterEarlyAnswers(app);
  closeQuietConnectionsOnClose(app);
  installConventions(app);
  installSecurityHeaders(app);
  installNoStore(app);
  // Before authentication: a preflight carries no token.
  installCors(app, config.corsOrigins);
  const routeFacts = collectRouteFacts(app, isLimitHook);
  installRequestScope(app);
  installAuth(app, tokens, deps.database);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Cart and store ordering service',
        version: '1.0.0',
        description:
          'Self-scanning ordering for trade-supply stores. Send `Authorization: Bearer <token>` ' +
          '(from `POST /api/v1/auth/jwt/token/`). Errors are JSON: `{"detail", "code"}`, or ' +
          '`{"<field>": ["message"]}` for validation (400).',
      },
      components: { securitySchemes: SECURITY_SCHEMES },
      security: [{ bearer: [] }],
      tags: API_TAGS,
    },
    // Error answers and security per operation, from each route's facts.
    transformObject: (document) =>
      completeDocument('openapiObject' in document ? document.openapiObject : {}, routeFacts),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: docsCsp,
  });
  app.get('/api/schema/', { schema: { hide: true } }, async () => app.swagger());
  // The WebSocket's description, beside the HTTP API's.
  app.get(ASYNCAPI_PATH, { schema: { hide: true } }, async (request) =>
    asyncApiDocument(linkBase(request)),
  );

  await app.register(websocket, {
    // Clients only listen: anything they send is small or abuse.
    options: { maxPayload: 4096 },
    // Going away (1001), as docs/operations.md says, where the plugin would send no code.
    preClose(done) {
      for (const client of this.websocketServer.clients)
        client.close(GOING_AWAY_CLOSE, 'Server shutting down');
      done();
    },
  });
  app.addHook('onClose', async () => notifier.close());

  await app.register(healthRoutes);
  await app.register(restorePageRoutes);
  await app.register(notificationSocketRoutes);
  await app.register(consoleRoutes);
  await app.register(
    async (api) => {
      await api.register(authRoutes);
      await api.register(cartRoutes);
      await api.register(itemRoutes);
      await api.register(controlRoutes);
      await api.register(shoppingListRoutes);
      await api.register(organizationRoutes);
      await api.register(storeRoutes);
      await api.register(optionRoutes);
      await api.register(scoreRoutes);
      await api.register(catalogueRoutes);
      await api.register(userRoutes);
      await api.register(notificationRoutes);
      await api.register(auditRoutes);
    },
    { prefix: '/api/v1' },
  );
  return app;
}
