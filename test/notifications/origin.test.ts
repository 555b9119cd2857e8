import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session, TestContext } from '../helpers/app.js';
import { startTestApp } from '../helpers/app.js';
import { type Client, issueCode, open, refused, wsUrl } from './client.js';

/**
 * ASVS 4.4.2: a page of another site cannot open the notification WebSocket. Browsers send
 * `Origin` on the handshake and a page cannot forge it; the server refuses every origin but
 * its own (PUBLIC_URL's, else the address it listens on) and WS_ALLOWED_ORIGINS, with HTTP
 * 403 before the upgrade and without spending the code. Clients that send no Origin (apps,
 * servers) are let through. Real sockets on a real port, as an attacker's page would send.
 */

const ALLOWED = 'http://localhost:5173';
/** The service's own host on another port (resolved once the port is known). */
const OTHER_PORT = 'own host, other port';
const clients: Client[] = [];
afterAll(() => {
  for (const client of clients) client.close();
});

async function opens(url: string, origin?: string): Promise<void> {
  const client = await open(url, { origin });
  clients.push(client);
  expect(client.socket.readyState).toBe(client.socket.OPEN);
}

describe('the WebSocket handshake without PUBLIC_URL', () => {
  let ctx: TestContext;
  let anna: Session;
  beforeAll(async () => {
    ctx = await startTestApp({ env: { WS_ALLOWED_ORIGINS: `${ALLOWED}, https://shop.example` } });
    anna = await ctx.login('anna');
  });
  afterAll(() => ctx?.close());

  for (const origin of ['https://evil.example', 'null', OTHER_PORT, 'http://127.0.0.1']) {
    it(`refuses Origin ${origin} with 403 origin_not_allowed, the code not spent`, async () => {
      const code = await issueCode(ctx, anna);
      const answer = await refused(wsUrl(ctx.url, code), { origin: resolve(origin, ctx) });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ detail: expect.any(String), code: 'origin_not_allowed' });
      // The same code still opens the socket for a client without Origin.
      await opens(wsUrl(ctx.url, code));
    });
  }

  it("opens for the service's own origin (the address it listens on)", async () => {
    await opens(wsUrl(ctx.url, await issueCode(ctx, anna)), ctx.url);
  });

  it('opens for an origin of WS_ALLOWED_ORIGINS', async () => {
    await opens(wsUrl(ctx.url, await issueCode(ctx, anna)), ALLOWED);
    await opens(wsUrl(ctx.url, await issueCode(ctx, anna)), 'https://shop.example');
  });

  it('opens without Origin (an app or a server)', async () => {
    await opens(wsUrl(ctx.url, await issueCode(ctx, anna)));
  });

  it('is not fooled by a Host header naming the attacker', async () => {
    const code = await issueCode(ctx, anna);
    const answer = await refused(wsUrl(ctx.url, code).replace('127.0.0.1', 'localhost'), {
      origin: ctx.url.replace('127.0.0.1', 'localhost'),
    });
    expect(answer.status).toBe(403);
  });
});

describe('the WebSocket handshake with PUBLIC_URL', () => {
  let ctx: TestContext;
  let anna: Session;
  beforeAll(async () => {
    ctx = await startTestApp({ env: { PUBLIC_URL: 'https://orders.example/shop/' } });
    anna = await ctx.login('anna');
  });
  afterAll(() => ctx?.close());

  it("opens for PUBLIC_URL's origin", async () => {
    await opens(wsUrl(ctx.url, await issueCode(ctx, anna)), 'https://orders.example');
  });

  it('refuses the listening address and other schemes or ports of that host', async () => {
    for (const origin of [ctx.url, 'http://orders.example', 'https://orders.example:8443']) {
      const code = await issueCode(ctx, anna);
      const answer = await refused(wsUrl(ctx.url, code), { origin });
      expect(answer.status, origin).toBe(403);
    }
  });
});

function resolve(origin: string, ctx: TestContext): string {
  if (origin !== OTHER_PORT) return origin;
  const url = new URL(ctx.url);
  url.port = String(Number(url.port) + 1);
  return url.origin;
}
