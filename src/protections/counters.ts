import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

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
      // While disconnected a command fails at once (the limits then count in the process).
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
