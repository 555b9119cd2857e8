import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The policy of every answer that sets none of its own (the API's JSON, errors, 404s): it
 * loads nothing, runs nothing and is never framed. The console, the restore page and the API
 * docs set their own, each with `frame-ancestors 'none'` (ASVS 5.0 3.4.3, 3.4.6).
 */
export const API_CSP =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The CSP of `/api/docs/` (Swagger UI): @fastify/swagger-ui's hashes, never framed, nothing remote. */
export function docsCsp(header: string): string {
  return header
    .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
    .replace("base-uri 'self'", "base-uri 'none'")
    .replace(' validator.swagger.io', '')
    .replace(/\s*upgrade-insecure-requests;?/, '');
}

/**
 * Headers every answer carries (ASVS 5.0 3.4.4 nosniff, 3.4.5 referrer policy, 3.4.6 frame
 * ancestors): a browser that is sent an API answer directly neither sniffs it into HTML nor
 * frames it, and no URL (which may hold a code) leaks through `Referer`. HSTS is the TLS
 * terminator's (docs/security.md): the service itself speaks plain HTTP behind it.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => setSecurityHeaders(reply));
}

/** The headers of `installSecurityHeaders`, for answers that run no hook (the router's own). */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'no-referrer');
  if (!reply.hasHeader('content-security-policy')) {
    reply.header('content-security-policy', API_CSP);
  }
}
