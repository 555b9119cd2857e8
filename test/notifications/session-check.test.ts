import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { users } from '../../src/db/schema.js';
import { startTestApp, type TestContext } from '../helpers/app.js';
import { type Client, connect, issueCode, refused, wsUrl } from './client.js';

/**
 * A socket belongs to the session that asked for its code. When that session ends in a way
 * this instance was not told of (another process without Redis: `ordering-admin users
 * end-sessions`, or a close message lost with Redis), the heartbeat finds the new session
 * generation and closes the socket with 4401; a code of an ended session opens nothing.
 * The generation is bumped in the database directly, as another process does.
 */

let ctx: TestContext;
const clients: Client[] = [];
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await ctx?.close();
});

const endElsewhere = (userId: number) =>
  ctx.database.db
    .update(users)
    .set({ sessionGeneration: sql`${users.sessionGeneration} + 1` })
    .where(eq(users.id, userId));

describe('the session check on the heartbeat', () => {
  it('closes with 4401 the sockets of a session ended elsewhere; others stay open', async () => {
    const anna = await ctx.login('anna');
    const bruno = await ctx.login('bruno');
    const annas = await connect(ctx, anna);
    const brunos = await connect(ctx, bruno);
    clients.push(annas, brunos);
    await endElsewhere(anna.userId);
    await ctx.deps.notifier!.checkSessions();
    expect(await annas.closed).toBe(4401);
    expect(brunos.socket.readyState).toBe(WebSocket.OPEN);
    expect(ctx.deps.notifier!.count(anna.userId)).toBe(0);
  });

  it('a code issued before the session ended opens nothing (401), even unused', async () => {
    const carla = await ctx.login('carla');
    const code = await issueCode(ctx, carla);
    await endElsewhere(carla.userId);
    const answer = await refused(wsUrl(ctx.url, code));
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('token_not_valid');
  });
});
