import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protections } from '../../src/protections/context.js';
import { MEMORY_STORE_MAX, MemoryStore } from '../../src/protections/counters.js';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';

// The crash: without REDIS_URL every distinct username was a new key in a Map, kept
// after the address was over its limit; 18,500 logins with 300-character usernames of `€`
// exhausted a 96 MB heap. Here the same flood, past the store's bound, against the real app.
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '10', TRUST_PROXY: 'true' } });
});
afterAll(() => ctx?.close());

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const login = (ip: string, username: string, password = 'wrong-password') =>
  ctx.request('POST', '/api/v1/auth/jwt/token/', {
    body: { username, password },
    headers: { 'x-forwarded-for': ip },
  });

// The counters live in the process, whichever database: the embedded run floods them once.
if (onPostgres)
  console.log('In-process counter flood skipped on PostgreSQL: the PGlite run covers it.');
describe.skipIf(onPostgres)('the in-process login and restore counters (no REDIS_URL)', () => {
  it('a flood of distinct long usernames past the bound: counters and heap stay flat, the limit still holds', async () => {
    const store = protections(ctx.app).throttle.store as MemoryStore;
    expect(store).toBeInstanceOf(MemoryStore);
    const before = heapAfterGc();
    const FLOOD = MEMORY_STORE_MAX + 2000;
    let next = 0;
    let throttled = 0;
    const worker = async () => {
      while (next < FLOOD) {
        const i = next++;
        const answer = await login('198.51.100.7', `${i}${'€'.repeat(300)}`);
        if (answer.status === 429) throttled += 1;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    // Every attempt after the address's 10th was refused, the cache full or not.
    expect(throttled).toBe(FLOOD - 10);
    expect(store.size).toBeLessThanOrEqual(MEMORY_STORE_MAX);
    expect(store.evictions).toBeGreaterThanOrEqual(FLOOD + 1 - MEMORY_STORE_MAX);
    // Unbounded, the flood's keys alone (2.7 KB each, URL-encoded) would hold about 33 MB.
    const grown = heapAfterGc() - before;
    expect(grown).toBeLessThan(8 * 1024 * 1024);

    // Full, it still counts: another address, per address and per username.
    for (let i = 0; i < 10; i++) expect((await login('198.51.100.8', 'anna')).status).toBe(400);
    expect((await login('198.51.100.8', 'anna', PASSWORDS.anna)).status).toBe(429);
    expect((await login('198.51.100.9', 'anna', PASSWORDS.anna)).status).toBe(429);
    expect(store.size).toBeLessThanOrEqual(MEMORY_STORE_MAX);
  }, 120_000);

  it('counts an IPv6 client by its /64: another address of the same /64 shares the counter', async () => {
    ctx.clock.advance(60);
    for (let i = 1; i <= 10; i++) {
      expect((await login(`2001:db8:0:7::${i.toString(16)}`, `v6-user-${i}`)).status).toBe(400);
    }
    expect((await login('2001:db8:0:7:ffff:1:2:3', 'v6-user-11')).status).toBe(429);
    expect((await login('2001:db8:0:8::1', 'v6-user-12')).status).toBe(400);
  });
});

describe('MemoryStore', () => {
  it('keeps at most max counters, evicting the least recently hit (counted)', async () => {
    const store = new MemoryStore(100);
    for (let i = 0; i < 250; i++) {
      await store.hit(`key-${i}-${'€'.repeat(300)}`, 1);
      // A counter hit all along stays.
      expect(await store.hit('hot', 1)).toBe(i + 1);
    }
    expect(store.size).toBe(100);
    expect(store.evictions).toBe(151);
    // An evicted counter starts again at 1; a kept one goes on.
    expect(await store.hit(`key-0-${'€'.repeat(300)}`, 1)).toBe(1);
    expect(await store.hit(`key-249-${'€'.repeat(300)}`, 1)).toBe(2);
    // The next window starts empty.
    expect(await store.hit('hot', 2)).toBe(1);
    expect(store.size).toBe(1);
  });
});
