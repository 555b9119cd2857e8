import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import { errors } from '../http/errors.js';
import { type CounterStore, MemoryStore } from './counters.js';
import { addressKey, keyPart } from './keys.js';

const WINDOW_MICROS = 60_000_000;

/**
 * Fixed one-minute windows on the injected clock, `limit` hits per key in each. Every hit
 * counts, refused or not. With a shared store (Redis) every hit is also counted in this
 * process (a bounded MemoryStore): while the shared store fails, those counts decide, so
 * stopping or overloading Redis does not lift the limit; it only makes it per instance. An
 * outage that starts mid-window keeps this instance's hits of that window. The first
 * failure of an outage is logged, and the first success after.
 */
export class Throttle {
  /** This process's counts beside a shared store; undefined when the store is in-process. */
  readonly local: MemoryStore | undefined;
  /** Whether the shared store fails now and the limits count in this process. */
  fallingBack = false;
  /** Checks decided on this process's counts because the shared store failed. */
  fallbackChecks = 0;

  constructor(
    readonly store: CounterStore,
    private readonly limit: number,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.local = store instanceof MemoryStore ? undefined : new MemoryStore();
  }

  /** Throws 429 `throttled` with `Retry-After` when any key is over the limit. */
  async check(keys: string[]): Promise<void> {
    if (this.limit <= 0 || keys.length === 0) return;
    const now = this.clock.nowMicros();
    const window = Math.floor(now / WINDOW_MICROS);
    const windowEnd = (window + 1) * WINDOW_MICROS;
    // Keys outlive their window a little, so a clock skew between instances does not reset them.
    const ttlMs = Math.ceil((windowEnd - now) / 1000) + 60_000;
    const hits = (store: CounterStore) =>
      Promise.all(keys.map((key) => store.hit(key, window, ttlMs)));
    const local = this.local ? hits(this.local) : undefined;
    let counts: number[];
    try {
      counts = await hits(this.store);
      await local;
      if (this.fallingBack) {
        this.fallingBack = false;
        this.log.info('rate-limit counters available again');
      }
    } catch (error) {
      if (!local) throw error;
      if (!this.fallingBack) {
        this.fallingBack = true;
        this.log.warn(
          { err: { message: (error as Error)?.message } },
          'rate-limit counters unavailable: counting in this process until they are back',
        );
      }
      this.fallbackChecks += 1;
      counts = await local;
    }
    if (counts.some((count) => count > this.limit)) {
      throw errors.throttled(Math.max(1, Math.ceil((windowEnd - now) / 1_000_000)));
    }
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

const limitHooks = new WeakSet<object>();

/** Whether a route hook is one of limitBy's (the OpenAPI document lists 429 for its route). */
export function isLimitHook(hook: unknown): boolean {
  return typeof hook === 'function' && limitHooks.has(hook);
}

/**
 * A route hook counting the attempt per client address (`request.ip`: X-Forwarded-For only
 * with TRUST_PROXY; IPv6 by its /64) and, when given, per body field (username or e-mail).
 * It runs before validation, so malformed attempts count too.
 */
export function limitBy(throttle: Throttle, scope: 'login' | 'restore', field?: string) {
  const hook = async (request: FastifyRequest): Promise<void> => {
    const keys = [`${scope}:ip:${addressKey(request.ip)}`];
    const body = request.body as Record<string, unknown> | undefined;
    const part = field && body && typeof body === 'object' ? keyPart(body[field]) : undefined;
    if (part) keys.push(`${scope}:${field}:${part}`);
    await throttle.check(keys);
  };
  limitHooks.add(hook);
  return hook;
}

/**
 * The limit of a route that checks the caller's password (change-password, logout-all): per
 * address and per account, on the login's own counters, so a stolen session cannot guess the
 * password here beyond what logins may (the caller is authenticated: the account is theirs).
 */
export function limitByAccount(throttle: Throttle) {
  const hook = async (request: FastifyRequest): Promise<void> => {
    const keys = [`login:ip:${addressKey(request.ip)}`];
    const part = keyPart(request.authUser?.username);
    if (part) keys.push(`login:username:${part}`);
    await throttle.check(keys);
  };
  limitHooks.add(hook);
  return hook;
}
