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

/** What a fault does in place of (or, with `after`, to) the answer. */
export type FaultKind =
  | { type: 'unavailable' }
  | { type: 'saturated' }
  | { type: 'html500' }
  /** An HTML error page with this status (a gateway's 502 or 504 in front of upstream). */
  | { type: 'html'; status: number }
  | { type: 'malformed' }
  | { type: 'delay'; ms: number }
  /**
   * Held, unanswered, until the simulator's `release()` (or `POST /_sim/release`); then
   * `next` applies if given (a 503 only once released, say), else the call is answered.
   */
  | { type: 'hang'; next?: Fault }
  | { type: 'reset' }
  | { type: 'unauthorized' }
  /**
   * This JSON body with `status` (default 200), whatever the contract says: an answer off
   * the contract. With `after` on `orders` and status 201: an order placed, its answer spoilt.
   */
  | { type: 'answer'; body: unknown; status?: number };

/**
 * `after`: the call is handled first (an order is placed) and only its answer is lost or
 * spoilt: cut (`reset`), replaced (`html`, `html500`, `malformed`, `unavailable`, …), or
 * sent late (`delay`, `hang`). Without it the fault replaces the handling.
 */
export type Fault = FaultKind & { after?: boolean };

const FAULT_TYPES = [
  'unavailable',
  'saturated',
  'html500',
  'html',
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
  const parsed = parseFault(fault, 'fault');
  if (typeof parsed === 'string') return parsed;
  if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 1)) {
    return 'times must be a positive integer';
  }
  return { route: route as SimRoute, fault: parsed, times: (times as number | undefined) ?? 1 };
}

function parseFault(fault: unknown, name: string): Fault | string {
  if (typeof fault !== 'object' || fault === null) return `${name} must be an object`;
  const {
    type,
    ms,
    status,
    next: following,
    after,
    body: answer,
  } = fault as Record<string, unknown>;
  if (!FAULT_TYPES.includes(type as string)) return `${name}.type must be one of ${FAULT_TYPES}`;
  if (type === 'delay' && !(Number.isInteger(ms) && (ms as number) >= 0)) {
    return `${name}.ms must be a non-negative integer`;
  }
  if (type === 'html' && !(Number.isInteger(status) && (status as number) >= 400)) {
    return `${name}.status must be an integer from 400`;
  }
  if (type === 'answer' && answer === undefined) return `${name}.body is required`;
  if (
    type === 'answer' &&
    status !== undefined &&
    !(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599)
  ) {
    return `${name}.status must be an integer from 200 to 599`;
  }
  if (after !== undefined && typeof after !== 'boolean') return `${name}.after must be a boolean`;
  let kind: FaultKind;
  if (type === 'delay') kind = { type, ms: ms as number };
  else if (type === 'html') kind = { type, status: status as number };
  else if (type === 'answer') {
    kind =
      status === undefined
        ? { type, body: answer }
        : { type, body: answer, status: status as number };
  } else if (type === 'hang' && following !== undefined) {
    const next = parseFault(following, `${name}.next`);
    if (typeof next === 'string') return next;
    kind = { type, next };
  } else kind = { type } as FaultKind;
  return after ? { ...kind, after: true } : kind;
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
    case 'html':
      return {
        status: fault.status,
        contentType: 'text/html; charset=utf-8',
        body: `<!DOCTYPE html>\n<html><head><title>${fault.status}</title></head><body><h1>Error ${fault.status}</h1><p>The gateway could not get an answer.</p></body></html>\n`,
      };
    case 'malformed':
      return { status: 200, contentType: json, body: '{"result": [{"id": "1", "name": "trunc' };
    case 'unauthorized':
      return { status: 401, contentType: json, body: JSON.stringify({ error: 'invalid_token' }) };
    case 'answer':
      return { status: fault.status ?? 200, contentType: json, body: JSON.stringify(fault.body) };
    default:
      return null;
  }
}
