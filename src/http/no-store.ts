import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authLevelOf } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public route whose answers hold a secret (a token, a code): never stored either. */
    noStore?: boolean;
  }
}

/** What an answer that no cache may keep carries (`Pragma` for HTTP/1.0 caches). */
export const NO_STORE_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/**
 * Whether no cache may keep the answer (ASVS 5.0 14.3.2; RFC 6749 §5.1 for tokens): every
 * answer of a route behind a token, every answer to a request that carries credentials
 * (`Authorization`, `Authorization-Upstream`: a 404 or a public route's answer included), and
 * every answer of a route that hands out a secret. Whatever the status: a 401, 403, 404,
 * 409, 429 or 5xx is decided as its 200 is, before the outcome is known.
 */
export function mustNotStore(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers.authorization !== undefined || headers['authorization-upstream'] !== undefined) {
    return true;
  }
  if (request.is404) return false;
  const { config, url } = request.routeOptions;
  if (config?.noStore) return true;
  return authLevelOf(config?.auth, url ?? '') !== 'public';
}

/** Sets the headers on an answer that no cache may keep. */
export function markNoStore(request: FastifyRequest, reply: FastifyReply): void {
  if (mustNotStore(request)) reply.headers(NO_STORE_HEADERS);
}

/**
 * The one place that decides: an onSend hook on every answer, errors included (the router's
 * own refusals run no hook: `frameworkErrors` calls `markNoStore` itself). Public answers to
 * requests without credentials (`options/`, health, the docs, the console's files) keep the
 * caching they have.
 */
export function installNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => markNoStore(request, reply));
}
