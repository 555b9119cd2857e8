import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { type PendingCaller, writeWithCaller } from '../../src/http/auth.js';

/**
 * writeWithCaller's call checks the caller's identity, not the route's level: on a staff or
 * admin route it would write for a customer before the level is judged, so it refuses there
 * before sending anything. (Its use on the checkout, a customer route, is tested through
 * PgBouncer in test/carts/checkout.test.ts.)
 */
describe('writeWithCaller', () => {
  const sent: unknown[] = [];
  const database = {
    run: async (...args: unknown[]) => {
      sent.push(args);
      return [];
    },
  } as unknown as Database;
  const requestAt = (level: PendingCaller['level']) =>
    ({
      pendingCaller: { id: 7, username: 'anna', generation: 0, level },
      authUser: null,
    }) as unknown as FastifyRequest;

  it.each(['staff', 'admin'] as const)('refuses on a %s route and sends nothing', async (level) => {
    await expect(writeWithCaller(requestAt(level), database, 'select 1', [])).rejects.toThrow(
      `writeWithCaller on a ${level} route`,
    );
    expect(sent).toEqual([]);
  });

  it('sends the call on a route any signed-in user may call', async () => {
    await expect(writeWithCaller(requestAt('user'), database, 'select 1', [])).rejects.toThrow(
      'User not found.',
    );
    expect(sent).toHaveLength(1);
  });
});
