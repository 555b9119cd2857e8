import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runForRequest } from '../db/scope.js';

const signals = new WeakMap<FastifyRequest, AbortSignal>();

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
    signals.set(request, controller.signal);
    runForRequest(controller.signal, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const signal = signals.get(request);
    if (signal) runForRequest(signal, done);
    else done();
  });
}
