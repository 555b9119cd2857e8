import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The methods a page on an allowed origin may use. */
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** The request headers it may send: the two tokens, the idempotency key and JSON bodies. */
const ALLOWED_HEADERS = 'Authorization, Authorization-Upstream, Idempotency-Key, Content-Type';
/** The answer headers its script may read (besides the CORS-safelisted ones). */
const EXPOSED_HEADERS =
  'Location, Retry-After, WWW-Authenticate, X-Request-Id, Idempotent-Replayed, Allow';
/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for browser clients on other origins (a PWA, a Capacitor or Ionic app): only the exact
 * origins of CORS_ORIGINS, none by default. The origin is echoed, never `*`, and no
 * `Access-Control-Allow-Credentials` is sent: the API reads bearer tokens from headers, not
 * cookies, so a page needs no credentials mode. A preflight of an allowed origin is answered
 * here, 204, before routing, authentication or any body; one of another origin goes on as any
 * OPTIONS request (the browser then refuses the call). Answers carry `Vary: Origin` so a
 * cache never hands one origin's answer to another.
 */
export function installCors(app: FastifyInstance, origins: string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  const allowedOrigin = (request: FastifyRequest): string | undefined => {
    const origin = request.headers.origin;
    return typeof origin === 'string' && allowed.has(origin) ? origin : undefined;
  };
  const vary = (reply: FastifyReply, name: string) => {
    const current = reply.getHeader('vary');
    const list = current === undefined ? [] : String(current).split(/\s*,\s*/);
    if (!list.some((entry) => entry.toLowerCase() === name.toLowerCase())) {
      reply.header('vary', [...list, name].join(', '));
    }
  };

  app.addHook('onRequest', async (request, reply) => {
    const origin = allowedOrigin(request);
    if (
      origin === undefined ||
      request.method !== 'OPTIONS' ||
      request.headers['access-control-request-method'] === undefined
    ) {
      return;
    }
    vary(reply, 'Origin');
    vary(reply, 'Access-Control-Request-Headers');
    return reply
      .code(204)
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', METHODS)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
      .send();
  });

  // onSend: error answers (401, 404, 503…) carry the headers too, so a page can read them.
  app.addHook('onSend', async (request, reply) => {
    vary(reply, 'Origin');
    const origin = allowedOrigin(request);
    if (origin === undefined || reply.hasHeader('access-control-allow-origin')) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  });
}
