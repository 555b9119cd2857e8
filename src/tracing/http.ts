import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import type { TrustFunction } from '../http/client-address.js';

/**
 * HTTP spans (@fastify/otel's plugin, handed over by src/tracing/sdk.ts when tracing is on)
 * and which callers may continue a trace.
 */
let plugin: FastifyPluginCallback | undefined;

export function setFastifyTracing(given: FastifyPluginCallback | undefined): void {
  plugin = given;
}

/** The W3C trace context headers (and baggage, which the service neither reads nor sends on). */
const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * When tracing is on: a caller's `traceparent` is taken only from a trusted proxy (TRUST_PROXY
 * names the connection's peer: the load balancer, which starts or forwards the trace); from
 * anyone else the request starts a trace of its own, so that a client can neither join its
 * requests to another trace nor choose what is sampled. Then @fastify/otel's plugin: a span
 * per request, named by its route. Without tracing nothing is added.
 */
export async function installTracing(
  app: FastifyInstance,
  trust: TrustFunction | boolean,
): Promise<void> {
  if (!plugin) return;
  app.addHook('onRequest', async (request) => {
    const peer = request.raw.socket.remoteAddress;
    const trusted = typeof trust === 'boolean' ? trust : peer !== undefined && trust(peer, 0);
    if (trusted) return;
    for (const header of TRACE_HEADERS) delete request.headers[header];
  });
  await app.register(plugin);
}
