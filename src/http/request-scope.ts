import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RequestScope, runForRequest } from '../db/scope.js';

const scopes = new WeakMap<FastifyRequest, RequestScope>();

/**
 * Each request runs with a signal that aborts when its client goes away before the answer
 * is sent, so the database pool does not take a connection for work nobody will read.
 * Entered twice: before the auth hook, and again after the body is read (body parsing
 * runs in the socket's context, not the request's).
 */
export function installRequestScope(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    const scope: RequestScope = { signal: controller.signal, writing: false };
    scopes.set(request, scope);
    runForRequest(scope, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const scope = scopes.get(request);
    if (scope) runForRequest(scope, done);
    else done();
  });
}
