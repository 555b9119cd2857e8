import type { FastifyReply, FastifyRequest } from 'fastify';

/** What an answer holding a secret (a token, a code) carries: no cache keeps a copy. */
export const NO_STORE_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/**
 * A route's onSend hook for answers that hold a secret (RFC 6749 §5.1: tokens; the same for
 * codes): every answer of the route, errors included, so no header depends on the outcome.
 */
export async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.headers(NO_STORE_HEADERS);
}
