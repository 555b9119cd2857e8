import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './helpers/process.js';

/**
 * The ports tests start services on: below the kernel's ephemeral range, where no outgoing
 * connection takes them between the check and the child's bind, and never handed out twice.
 */
describe('freePort (test/helpers/process.ts)', () => {
  it('answers distinct, bindable ports below the ephemeral range', async () => {
    const low = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    const ports = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
      const server = createServer().listen(port, '127.0.0.1');
      await once(server, 'listening');
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
