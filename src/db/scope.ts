import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a database call is made for, so the pool can refuse work for a client that
 * has gone away (its answer would be thrown away) instead of taking a connection for it.
 */
const requests = new AsyncLocalStorage<AbortSignal>();

export function runForRequest<T>(signal: AbortSignal, work: () => T): T {
  return requests.run(signal, work);
}

/** The signal of the request being served, when there is one. */
export function requestSignal(): AbortSignal | undefined {
  return requests.getStore();
}
