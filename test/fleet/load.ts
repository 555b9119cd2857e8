import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, fetch } from 'undici';
import { seededRandom } from '../../src/admin/demo-carts.js';

/** A signed-in user as the load clients need it. */
export interface User {
  token: string;
  upstreamToken: string;
  organization: string;
}

/** The quantities the service acknowledged (2xx) per cart and part, and those not known. */
export interface Tally {
  requests: number;
  /** Failed requests by cause: `<status> <code>` for an answer, the error's code for none. */
  failures: Map<string, number>;
  /** cart id → part → quantity acknowledged. */
  acked: Map<number, Map<string, number>>;
  /** cart id → part → quantity of adds whose outcome is unknown (cut, proxy error). */
  unknown: Map<number, Map<string, number>>;
  /** cart id → order id of each 200 checkout. */
  checkouts: Map<number, string>;
  /** Carts whose checkout's outcome is unknown (cut, proxy error, 5xx). */
  uncertainCheckouts: Set<number>;
  /** Every request's end: when, whether it wrote (not a GET), whether it failed. */
  events: { at: number; write: boolean; failed: boolean }[];
}

export function newTally(): Tally {
  return {
    requests: 0,
    failures: new Map(),
    acked: new Map(),
    unknown: new Map(),
    checkouts: new Map(),
    uncertainCheckouts: new Set(),
    events: [],
  };
}

export const failedCount = (tally: Tally) =>
  [...tally.failures.values()].reduce((sum, n) => sum + n, 0);

const add = (map: Map<number, Map<string, number>>, cart: number, part: string, q: number) => {
  const lines = map.get(cart) ?? new Map<string, number>();
  lines.set(part, (lines.get(part) ?? 0) + q);
  map.set(cart, lines);
};

const PARTS = ['10001234', '10001235', '10001236', '10001237'];

interface Outcome {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the answers' bodies are read field by field
  body: any;
  /** Why it failed, when it did: `<status> <code>` or the connection error's code. */
  cause?: string;
}

export interface LoadOptions {
  /**
   * Clients that retry as a phone does: every cart creation and add carries an
   * `Idempotency-Key` and is sent again with it until it is answered (2xx or 4xx), and a
   * checkout is sent again until it is (409 `checkout_in_progress` included); `retryMs` apart.
   */
  retry?: boolean;
  retryMs?: number;
  /** Readers besides the clients: each lists the user's carts, one request at a time. */
  readers?: number;
}

/**
 * Clients looping on the hot path through the balancer: a cart, 2 to 4 adds (a part may
 * come twice: merged), a checkout. Each client works on its own cart, one request at a time,
 * so every answer but a 2xx is a failure. Keeps going until `stop()`.
 */
export class Load {
  readonly tally = newTally();
  private stopped = false;
  private running: Promise<void>[] = [];
  private readonly agent = new Agent({ keepAliveTimeout: 4000, connections: 64 });

  constructor(
    private readonly baseUrl: string,
    private readonly user: User,
    private readonly store: string,
    private readonly label: string,
    private readonly options: LoadOptions = {},
  ) {}

  start(clients: number, seed: number): void {
    for (let c = 0; c < clients; c++) this.running.push(this.client(c, seededRandom(seed + c)));
    for (let r = 0; r < (this.options.readers ?? 0); r++) this.running.push(this.reader());
  }

  async stop(): Promise<Tally> {
    this.stopped = true;
    await Promise.all(this.running);
    await this.agent.close();
    return this.tally;
  }

  private async call(
    method: string,
    path: string,
    body?: unknown,
    upstream = false,
    idempotencyKey?: string,
  ) {
    this.tally.requests++;
    let outcome: Outcome;
    try {
      const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.user.token}`,
          ...(upstream ? { 'authorization-upstream': `Bearer ${this.user.upstreamToken}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.agent,
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      outcome = { status: response.status, body: parsed };
      if (response.status >= 300) {
        const code =
          parsed && typeof parsed === 'object' && 'code' in parsed
            ? String((parsed as { code: unknown }).code)
            : 'proxy';
        // A 503 tells the client when to come back (docs/http-contract.md).
        const retryAfter = response.status === 503 && !response.headers.get('retry-after');
        outcome.cause = `${response.status} ${code}${retryAfter ? ' (no Retry-After)' : ''}`;
      }
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      outcome = { status: 0, body: undefined, cause: cause?.code ?? cause?.message ?? 'error' };
    }
    if (outcome.cause) {
      const key = `${method} ${path.replace(/\d+/g, ':id')}: ${outcome.cause}`;
      this.tally.failures.set(key, (this.tally.failures.get(key) ?? 0) + 1);
    }
    this.tally.events.push({ at: Date.now(), write: method !== 'GET', failed: !!outcome.cause });
    return outcome;
  }

  /**
   * `call`, and with `retry` again under the same key until answered (2xx or 4xx) or
   * stopped. `uncertain`: some attempt's outcome is unknown (a cut, a proxy's error, a 5xx
   * that is not the service's own 503, which changed nothing).
   */
  private async send(method: string, path: string, body?: unknown, upstream = false) {
    const key = this.options.retry && method === 'POST' ? randomUUID() : undefined;
    let uncertain = false;
    for (;;) {
      const answer = await this.call(method, path, body, upstream, key);
      // A checkout in flight (or cut, its outcome unknown) answers 409 until it settles: the
      // client asks again to get its record (docs/http-contract.md).
      const inProgress = answer.status === 409 && answer.body?.code === 'checkout_in_progress';
      if (answer.status >= 200 && answer.status < 500 && !inProgress) return { answer, uncertain };
      if (!inProgress && !isServiceUnavailable(answer)) uncertain = true;
      if (!this.options.retry || this.stopped) return { answer, uncertain };
      await sleep(this.options.retryMs ?? 100);
    }
  }

  private async reader(): Promise<void> {
    while (!this.stopped) await this.call('GET', '/carts/?page_size=5');
  }

  private async client(c: number, random: () => number): Promise<void> {
    let seq = 0;
    while (!this.stopped) {
      seq++;
      const { answer: created } = await this.send('POST', '/carts/', {
        store: this.store,
        organization: this.user.organization,
        customer_order_number: `${this.label}-${c}-${seq}`,
        order_mark: 'fleet',
      });
      if (created.status !== 201) continue;
      const cart: number = created.body.id;
      const adds = 2 + Math.floor(random() * 3);
      for (let i = 0; i < adds && !this.stopped; i++) {
        const part = PARTS[Math.floor(random() * PARTS.length)];
        const quantity = 1 + Math.floor(random() * 5);
        const { answer, uncertain } = await this.send('POST', '/items/', {
          cart,
          part_number: part,
          quantity,
        });
        if (answer.status === 201) add(this.tally.acked, cart, part, quantity);
        // A 4xx, or the service's own 503 (decision 0004: it changed nothing), stored nothing.
        else if (uncertain) add(this.tally.unknown, cart, part, quantity);
      }
      if (this.stopped) break;
      const { answer: checkout, uncertain } = await this.send(
        'PATCH',
        `/carts/${cart}/checkout/`,
        undefined,
        true,
      );
      if (checkout.status === 200) this.tally.checkouts.set(cart, checkout.body.order_id);
      else if (uncertain || !(checkout.status >= 400 && checkout.status < 500))
        this.tally.uncertainCheckouts.add(cart);
    }
  }
}

const isServiceUnavailable = (outcome: Outcome) =>
  outcome.status === 503 && outcome.body?.code === 'database_unavailable';
