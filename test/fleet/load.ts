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
}

export function newTally(): Tally {
  return {
    requests: 0,
    failures: new Map(),
    acked: new Map(),
    unknown: new Map(),
    checkouts: new Map(),
    uncertainCheckouts: new Set(),
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
  ) {}

  start(clients: number, seed: number): void {
    for (let c = 0; c < clients; c++) this.running.push(this.client(c, seededRandom(seed + c)));
  }

  async stop(): Promise<Tally> {
    this.stopped = true;
    await Promise.all(this.running);
    await this.agent.close();
    return this.tally;
  }

  private async call(method: string, path: string, body?: unknown, upstream = false) {
    this.tally.requests++;
    let outcome: Outcome;
    try {
      const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.user.token}`,
          ...(upstream ? { 'authorization-upstream': `Bearer ${this.user.upstreamToken}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
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
        outcome.cause = `${response.status} ${code}`;
      }
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      outcome = { status: 0, body: undefined, cause: cause?.code ?? cause?.message ?? 'error' };
    }
    if (outcome.cause) {
      const key = `${method} ${path.replace(/\d+/g, ':id')}: ${outcome.cause}`;
      this.tally.failures.set(key, (this.tally.failures.get(key) ?? 0) + 1);
    }
    return outcome;
  }

  private async client(c: number, random: () => number): Promise<void> {
    let seq = 0;
    while (!this.stopped) {
      seq++;
      const created = await this.call('POST', '/carts/', {
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
        const answer = await this.call('POST', '/items/', { cart, part_number: part, quantity });
        if (answer.status === 201) add(this.tally.acked, cart, part, quantity);
        // A 4xx, or the service's own 503 (decision 0004: it changed nothing), stored nothing.
        else if (!(answer.status >= 400 && answer.status < 500) && !isServiceUnavailable(answer))
          add(this.tally.unknown, cart, part, quantity);
      }
      if (this.stopped) break;
      const checkout = await this.call('PATCH', `/carts/${cart}/checkout/`, undefined, true);
      if (checkout.status === 200) this.tally.checkouts.set(cart, checkout.body.order_id);
      else if (!(checkout.status >= 400 && checkout.status < 500))
        this.tally.uncertainCheckouts.add(cart);
    }
  }
}

const isServiceUnavailable = (outcome: Outcome) =>
  outcome.status === 503 && outcome.body?.code === 'database_unavailable';
