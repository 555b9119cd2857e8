import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './process.js';

/**
 * freePort hands each vitest worker ports from a block of its own, below the kernel's
 * ephemeral range, skipping any in use: two files on two workers cannot be handed the same
 * port between one's check and its process's bind.
 */
describe('freePort', () => {
  const block = 20_000 + (Number(process.env.VITEST_POOL_ID ?? 0) % 12) * 1_000;

  it("answers this worker's ports, in turn, below the ephemeral range", async () => {
    const first = await freePort();
    const second = await freePort();
    for (const port of [first, second]) {
      expect(port).toBeGreaterThanOrEqual(block);
      expect(port).toBeLessThan(block + 1_000);
    }
    expect(second).not.toBe(first);
  });

  it('skips a port something listens on', async () => {
    const next = await freePort();
    // The port after it, taken before freePort reaches it.
    const taken = createServer().listen(next + 1 >= block + 1_000 ? block : next + 1, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const { port } = taken.address() as { port: number };
      expect(await freePort()).not.toBe(port);
    } finally {
      taken.close();
    }
  });
});
