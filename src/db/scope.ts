import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a database call is made for, so the pool can refuse work for a client that
 * has gone away (its answer would be thrown away) instead of taking a connection for it.
 * Only until the request starts to write: from then on its work runs to the end (a checkout
 * whose order went upstream must still record it, whoever waits for the answer).
 */
export interface RequestScope {
  signal: AbortSignal;
  /** Set once the request took a connection to write (a transaction or a write statement). */
  writing: boolean;
}

const requests = new AsyncLocalStorage<RequestScope>();

export function runForRequest<T>(scope: RequestScope, work: () => T): T {
  return requests.run(scope, work);
}

/** The scope of the request being served, when there is one. */
export function requestScope(): RequestScope | undefined {
  return requests.getStore();
}
