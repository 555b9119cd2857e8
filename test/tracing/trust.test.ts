import Fastify, { type FastifyPluginCallback } from 'fastify';
import { describe, expect, it } from 'vitest';
import { trustFunction } from '../../src/http/client-address.js';
import { installTracing, setFastifyTracing } from '../../src/tracing/http.js';

/**
 * Which callers may continue a trace (src/tracing/http.ts): the W3C headers reach the
 * tracing plugin only from a trusted proxy (TRUST_PROXY), else they are dropped first. The
 * plugin here is a stand-in that records what it was handed.
 */
async function headersSeen(trustProxy: Parameters<typeof trustFunction>[0], from: string) {
  const seen: (string | undefined)[] = [];
  const recorder: FastifyPluginCallback = (instance, _options, done) => {
    instance.addHook('onRequest', async (request) => {
      seen.push(
        request.headers.traceparent as string | undefined,
        request.headers.baggage as string | undefined,
      );
    });
    done();
  };
  Object.assign(recorder, { [Symbol.for('skip-override')]: true });
  setFastifyTracing(recorder);
  const app = Fastify();
  await installTracing(app, trustFunction(trustProxy));
  app.get('/', async () => 'ok');
  const answer = await app.inject({
    method: 'GET',
    url: '/',
    remoteAddress: from,
    headers: {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      baggage: 'user=anna',
    },
  });
  expect(answer.statusCode).toBe(200);
  await app.close();
  // The files of a worker share their modules (vitest.config.ts): later apps must not get it.
  setFastifyTracing(undefined);
  return seen;
}

describe('trace context from callers', () => {
  it('is taken from a trusted proxy', async () => {
    const seen = await headersSeen({ kind: 'addresses', addresses: ['10.0.0.0/8'] }, '10.1.2.3');
    expect(seen[0]).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
  });

  it('is dropped from anyone else, and without TRUST_PROXY from everyone', async () => {
    expect(
      await headersSeen({ kind: 'addresses', addresses: ['10.0.0.0/8'] }, '192.0.2.7'),
    ).toEqual([undefined, undefined]);
    expect(await headersSeen(undefined, '127.0.0.1')).toEqual([undefined, undefined]);
    // A hop count vouches for the socket's peer (the proxy in front).
    expect((await headersSeen({ kind: 'hops', hops: 1 }, '192.0.2.7'))[0]).toBeDefined();
  });
});
