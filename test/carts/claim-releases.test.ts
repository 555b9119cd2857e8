import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClaimReleases, FIRST_RETRY_MS, MAX_RETRY_MS } from '../../src/carts/claims.js';
import { ManualClock } from '../../src/clock.js';
import type { Database } from '../../src/db/client.js';
import { DatabaseUnavailable } from '../../src/db/errors.js';

/**
 * A claim whose release met the database down is released in the background; until then its
 * cart's checkout answers 409. So once the database is back the release must follow within
 * the retry cap, however long the outage was (the switchover's 5 s window in
 * test/failover counts those 409s). Timers are V8's, made virtual: no waiting, no sleeps.
 */
describe('claim releases retried in the background', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('retry at most every MAX_RETRY_MS (500 ms), so a long outage leaves at most that much 409 tail', async () => {
    let down = true;
    const attempts: number[] = [];
    const database = {
      run: async () => {
        attempts.push(Date.now());
        if (down) throw new DatabaseUnavailable('database unavailable: connection refused');
        return [{ released: true }];
      },
    } as unknown as Database;
    const log = { warn: () => {}, info: () => {}, error: () => {} };
    const releases = new ClaimReleases({ database, clock: new ManualClock() }, log);
    const landed: string[] = [];
    const start = Date.now();
    releases.later(
      { cartId: 1, token: 't', placedNothing: true, availabilityError: false },
      async (r) => {
        landed.push(r.state);
      },
    );
    // Thirty seconds down: the retries back off, up to the cap and no further.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(landed).toEqual([]);
    expect(releases.pending).toBe(1);
    const gaps = attempts.map((at, i) => at - (i === 0 ? start : attempts[i - 1]));
    expect(gaps[0]).toBe(FIRST_RETRY_MS);
    expect(Math.max(...gaps)).toBe(MAX_RETRY_MS);
    expect(MAX_RETRY_MS).toBeLessThanOrEqual(500);
    // Back: the release lands at the next retry, within the cap.
    down = false;
    const back = Date.now();
    await vi.advanceTimersByTimeAsync(MAX_RETRY_MS);
    expect(landed).toEqual(['released']);
    expect(attempts.at(-1)! - back).toBeLessThanOrEqual(MAX_RETRY_MS);
    expect(releases.pending).toBe(0);
    releases.close();
  });
});
