import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import { errors } from '../http/errors.js';

const WINDOW_MICROS = 60_000_000;

/** Counts hits of a key in a fixed window; answers the count including this hit. */
export interface CounterStore {
  hit(key: string, window: number, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

/** How many counters MemoryStore keeps at most (under 2 MB: keys are fixed-size hashes). */
export const MEMORY_STORE_MAX = 10_000;

/**
 * In-process counters: one instance only. Bounded whatever clients send: a key is stored as
 * a fixed-size hash, at most `max` counters are kept, and the least recently hit is evicted
 * beyond that (counted in `evictions`). A counter hit on every attempt (an address, a name
 * under attack) stays recent, so a flood of other keys evicts the idle ones first. Entries
 * of past windows are dropped.
 */
export class MemoryStore implements CounterStore {
  private readonly counts = new Map<string, number>();
  private window = -1;
  /** Counters evicted to stay within `max`. */
  evictions = 0;

  constructor(readonly max = MEMORY_STORE_MAX) {}

  get size(): number {
    return this.counts.size;
  }

  async hit(key: string, window: number): Promise<number> {
    if (window !== this.window) {
      if (window > this.window) this.counts.clear();
      this.window = Math.max(window, this.window);
    }
    const id = `${window}:${createHash('sha256').update(key).digest('base64url').slice(0, 22)}`;
    const count = (this.counts.get(id) ?? 0) + 1;
    // Map keeps insertion order: deleting and setting again makes this the most recent.
    this.counts.delete(id);
    this.counts.set(id, count);
    if (this.counts.size > this.max) {
      const oldest = this.counts.keys().next().value as string;
      this.counts.delete(oldest);
      this.evictions += 1;
    }
    return count;
  }

  async close(): Promise<void> {}
}

/** Counters shared by every instance through Redis: INCR and PEXPIRE in one MULTI. */
export class RedisStore implements CounterStore {
  private readonly redis: Redis;
  private readonly connected: Promise<void>;

  constructor(
    url: string,
    private readonly prefix: string,
    log: FastifyBaseLogger,
    timeoutMs = 2000,
  ) {
    this.redis = new Redis(url, {
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      maxRetriesPerRequest: 1,
      // While disconnected a command fails at once (and the limit fails open).
      enableOfflineQueue: false,
      retryStrategy: (times) => Math.min(times * 200, 5000),
    });
    // Only the first connection is waited for (bounded), so the first requests count too.
    this.connected = new Promise<void>((resolve) => {
      this.redis.once('ready', resolve);
      this.redis.once('error', () => resolve());
      setTimeout(resolve, timeoutMs).unref();
    });
    let reported = false;
    this.redis.on('error', (error: Error & { code?: string }) => {
      if (reported) return;
      reported = true;
      log.warn({ err: { message: error.message, code: error.code } }, 'rate-limit Redis error');
    });
    this.redis.on('ready', () => {
      reported = false;
    });
  }

  async hit(key: string, window: number, ttlMs: number): Promise<number> {
    await this.connected;
    const id = `${this.prefix}${window}:${key}`;
    const answers = await this.redis.multi().incr(id).pexpire(id, ttlMs).exec();
    const [error, count] = answers?.[0] ?? [new Error('transaction aborted'), null];
    if (error) throw error;
    return Number(count);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/**
 * Fixed one-minute windows on the injected clock, `limit` hits per key in each. Every hit
 * counts, refused or not. A store failure lets the request through: a broken Redis must not
 * lock everybody out. The first failure of an outage is logged, and the first success after.
 */
export class Throttle {
  private unavailable = false;

  constructor(
    readonly store: CounterStore,
    private readonly limit: number,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Throws 429 `throttled` with `Retry-After` when any key is over the limit. */
  async check(keys: string[]): Promise<void> {
    if (this.limit <= 0 || keys.length === 0) return;
    const now = this.clock.nowMicros();
    const window = Math.floor(now / WINDOW_MICROS);
    const windowEnd = (window + 1) * WINDOW_MICROS;
    // Keys outlive their window a little, so a clock skew between instances does not reset them.
    const ttlMs = Math.ceil((windowEnd - now) / 1000) + 60_000;
    let counts: number[];
    try {
      counts = await Promise.all(keys.map((key) => this.store.hit(key, window, ttlMs)));
    } catch (error) {
      if (!this.unavailable) {
        this.unavailable = true;
        this.log.warn(
          { err: { message: (error as Error)?.message } },
          'rate-limit counters unavailable: requests let through until they are back',
        );
      }
      return;
    }
    if (this.unavailable) {
      this.unavailable = false;
      this.log.info('rate-limit counters available again');
    }
    if (counts.some((count) => count > this.limit)) {
      throw errors.throttled(Math.max(1, Math.ceil((windowEnd - now) / 1_000_000)));
    }
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/**
 * Lower-cased and trimmed, so `Anna` and `anna ` share a counter. Never throws: this runs
 * before validation, on any string a client sends. An unpaired surrogate (sent as is, or made
 * by cutting an emoji in half at 320 characters) becomes U+FFFD, which encodeURIComponent
 * takes.
 */
export function keyPart(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const key = value.trim().toLowerCase();
  return key === '' ? undefined : encodeURIComponent(key.slice(0, 320).toWellFormed());
}

const limitHooks = new WeakSet<object>();

/** Whether a route hook is one of limitBy's (the OpenAPI document lists 429 for its route). */
export function isLimitHook(hook: unknown): boolean {
  return typeof hook === 'function' && limitHooks.has(hook);
}

/**
 * The counter of a client address: an IPv4 address as is, an IPv6 address by its /64 (one
 * customer line holds a whole /64: counting each of its 2^64 addresses apart would bound
 * nothing). An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  // An embedded IPv4 tail (`::1.2.3.4`) takes two groups; only the first four matter here.
  const groups = [
    ...left,
    ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'),
    ...right,
  ];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
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
