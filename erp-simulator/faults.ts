/** The fault switch: queued failures the next calls of a route get, in FIFO order. */

export type SimRoute =
  | 'auth.token'
  | 'auth.refresh'
  | 'me'
  | 'me.password'
  | 'admin.user'
  | 'admin.users'
  | 'admin.password'
  | 'products.get'
  | 'products.price'
  | 'products.stock'
  | 'categories'
  | 'credit'
  | 'shipments'
  | 'orders';

export const SIM_ROUTES: readonly SimRoute[] = [
  'auth.token',
  'auth.refresh',
  'me',
  'me.password',
  'admin.user',
  'admin.users',
  'admin.password',
  'products.get',
  'products.price',
  'products.stock',
  'categories',
  'credit',
  'shipments',
  'orders',
];

export type Fault =
  | { type: 'unavailable' }
  | { type: 'saturated' }
  | { type: 'html500' }
  | { type: 'malformed' }
  | { type: 'delay'; ms: number }
  /** Held, unanswered, until the simulator's `release()` (or `POST /_sim/release`). */
  | { type: 'hang' }
  | { type: 'reset' }
  | { type: 'unauthorized' }
  /** 200 with this JSON body, whatever the contract says: an answer off the contract. */
  | { type: 'answer'; body: unknown };

const FAULT_TYPES = [
  'unavailable',
  'saturated',
  'html500',
  'malformed',
  'delay',
  'hang',
  'reset',
  'unauthorized',
  'answer',
];

export class FaultSwitch {
  private readonly queues = new Map<SimRoute, Fault[]>();

  inject(route: SimRoute, fault: Fault, times = 1): void {
    const queue = this.queues.get(route) ?? [];
    for (let i = 0; i < times; i++) queue.push({ ...fault });
    this.queues.set(route, queue);
  }

  /** The fault the current call of `route` gets, if any (consumes it). */
  take(route: SimRoute): Fault | undefined {
    return this.queues.get(route)?.shift();
  }

  clear(): void {
    this.queues.clear();
  }
}

/** Validates `{route, fault, times}` from `POST /_sim/faults`; a string is the problem. */
export function parseFaultRequest(
  body: unknown,
): { route: SimRoute; fault: Fault; times: number } | string {
  if (typeof body !== 'object' || body === null) return 'body must be an object';
  const { route, fault, times } = body as Record<string, unknown>;
  if (!SIM_ROUTES.includes(route as SimRoute)) return `route must be one of ${SIM_ROUTES}`;
  if (typeof fault !== 'object' || fault === null) return 'fault must be an object';
  const { type, ms, body: answer } = fault as Record<string, unknown>;
  if (!FAULT_TYPES.includes(type as string)) return `fault.type must be one of ${FAULT_TYPES}`;
  if (type === 'delay' && !(Number.isInteger(ms) && (ms as number) >= 0)) {
    return 'fault.ms must be a non-negative integer';
  }
  if (type === 'answer' && answer === undefined) return 'fault.body is required';
  if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 1)) {
    return 'times must be a positive integer';
  }
  const parsed = (
    type === 'delay' ? { type, ms } : type === 'answer' ? { type, body: answer } : { type }
  ) as Fault;
  return { route: route as SimRoute, fault: parsed, times: (times as number | undefined) ?? 1 };
}

/** Status, content type and body of the faults that replace the answer outright. */
export function faultAnswer(
  fault: Fault,
): { status: number; contentType: string; body: string } | null {
  const json = 'application/json; charset=utf-8';
  switch (fault.type) {
    case 'unavailable':
      return {
        status: 503,
        contentType: json,
        body: JSON.stringify({
          error: 'unavailable',
          detail: 'The ordering system is temporarily unavailable; nothing was processed.',
        }),
      };
    case 'html500':
      return {
        status: 500,
        contentType: 'text/html; charset=utf-8',
        body: '<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>The server encountered an internal error.</p></body></html>\n',
      };
    case 'malformed':
      return { status: 200, contentType: json, body: '{"result": [{"id": "1", "name": "trunc' };
    case 'unauthorized':
      return { status: 401, contentType: json, body: JSON.stringify({ error: 'invalid_token' }) };
    case 'answer':
      return { status: 200, contentType: json, body: JSON.stringify(fault.body) };
    default:
      return null;
  }
}
