import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Session, TestContext } from '../helpers/app.js';
import { startTestApp } from '../helpers/app.js';
import { until } from '../helpers/wait.js';
import { type Client, connect, issueCode, open, refused, wsUrl } from './client.js';

/**
 * Notification sockets are bounded: a user holds at most WS_MAX_PER_USER (default 10) on
 * an instance, a newer one closing the oldest with 4429; an instance holds at most
 * WS_MAX_CONNECTIONS, past which an upgrade is refused (503, the code not spent) or, when
 * accepted together with others, closed with 1013. Real sockets, the `ws` client.
 */

const TOTAL = 14;
let ctx: TestContext;
let anna: Session;
let bruno: Session;
let carla: Session;
const clients: Client[] = [];

beforeAll(async () => {
  // WS_MAX_PER_USER at its default.
  ctx = await startTestApp({ env: { WS_MAX_CONNECTIONS: String(TOTAL) } });
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  carla = await ctx.login('carla');
});
afterAll(async () => {
  for (const client of clients) client.close();
  await ctx?.close();
});

const notifier = () => ctx.deps.notifier!;

async function client(session: Session): Promise<Client> {
  const opened = await connect(ctx, session);
  clients.push(opened);
  return opened;
}

/** Whether the client gets a message published to its user now. */
async function hears(target: Client, userId: number): Promise<boolean> {
  notifier().publish([userId], { type: 'control.verified', data: { probe: true }, created: '' });
  return target.next(2000).then(
    () => true,
    () => false,
  );
}

describe('WebSocket connections per user and per instance', () => {
  it('one user opening 12 sockets holds 10: each newer one closed the oldest with 4429', async () => {
    const opened: Client[] = [];
    for (let i = 0; i < 12; i++) opened.push(await client(anna));
    expect(await opened[0].closed).toBe(4429);
    expect(await opened[1].closed).toBe(4429);
    expect(notifier().count(anna.userId)).toBe(10);
    for (const held of opened.slice(2)) {
      expect(held.socket.readyState).toBe(WebSocket.OPEN);
      expect(await hears(held, anna.userId)).toBe(true);
    }
    // Another user is not affected by anna's cap.
    const other = await client(bruno);
    expect(await hears(other, bruno.userId)).toBe(true);
  });

  it(`a full instance (${TOTAL}) refuses a new upgrade with 503 too_many_connections; the code still works once there is room`, async () => {
    // anna 10 and bruno 1 from the test above: 3 more of bruno's fill the instance.
    const bruno2 = [await client(bruno), await client(bruno), await client(bruno)];
    expect(notifier().total()).toBe(TOTAL);
    const code = await issueCode(ctx, carla);
    const answer = await refused(wsUrl(ctx.url, code));
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ detail: expect.any(String), code: 'too_many_connections' });
    expect(answer.headers['retry-after']).toBe('5');
    bruno2[0].close();
    await until(() => notifier().total() < TOTAL, 'a socket left');
    const later = await open(wsUrl(ctx.url, code));
    clients.push(later);
    expect(await hears(later, carla.userId)).toBe(true);
    expect(notifier().total()).toBe(TOTAL);
  });

  it('connections arriving together never take the instance past its cap (1013 for the late ones)', async () => {
    clients.find((c) => c.socket.readyState === WebSocket.OPEN)!.close();
    await until(() => notifier().total() < TOTAL, 'a socket left');
    const codes = await Promise.all([1, 2, 3].map(() => issueCode(ctx, carla)));
    // Each upgrade is held where its code is spent, after the room was checked: all three
    // pass the check while one slot is free, as concurrent ones can.
    const real = ctx.database.db;
    let held = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    ctx.database.db = new Proxy(real, {
      get(target, name, receiver) {
        if (name !== 'delete') return Reflect.get(target, name, receiver);
        // redeemCode's chain, delete(table).where(condition).returning(fields), run at the gate.
        const chain = target as unknown as {
          delete(...a: unknown[]): {
            where(...a: unknown[]): { returning(...a: unknown[]): Promise<unknown> };
          };
        };
        return (...table: unknown[]) => {
          held++;
          return {
            where: (...condition: unknown[]) => ({
              returning: (...fields: unknown[]) =>
                gate.then(() =>
                  chain
                    .delete(...table)
                    .where(...condition)
                    .returning(...fields),
                ),
            }),
          };
        };
      },
    });
    let outcomes: (number | 'held')[];
    try {
      const opening = codes.map((code) => open(wsUrl(ctx.url, code)));
      await until(() => held === 3, 'three upgrades past the check');
      release();
      const opened = await Promise.all(opening);
      clients.push(...opened);
      outcomes = await Promise.all(
        opened.map((o) =>
          Promise.race([o.closed, hears(o, carla.userId).then(() => 'held' as const)]),
        ),
      );
    } finally {
      ctx.database.db = real;
    }
    expect(notifier().total()).toBe(TOTAL);
    expect(outcomes.filter((o) => o === 'held')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 1013)).toHaveLength(2);
  });
});
