import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium } from '../console/harness.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createCart } from '../helpers/fixtures.js';

/**
 * CORS as a browser enforces it (issue 32): a page served from another origin, in Debian's
 * Chromium, calls the API with a bearer token, `Idempotency-Key` and JSON, which makes the
 * browser send a preflight first. From an origin in CORS_ORIGINS the call goes through and its
 * answer and exposed headers can be read; from any other origin the browser refuses it after
 * the preflight, and the write never reaches the service.
 */

if (!HAVE_CHROMIUM) {
  console.log(`CORS browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
}

/** A page on its own origin (another port of 127.0.0.1): an empty document to run fetch in. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>app</title><p>another origin</p>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { server, origin: `http://127.0.0.1:${port}` };
}

interface Outcome {
  status?: number;
  body?: unknown;
  replayed?: string | null;
  requestId?: string | null;
  blocked?: string;
}

/** POST items/ from the page, twice with the same key (the second a replay). */
function addFromPage(page: Page, api: string, token: string, cart: number, key: string) {
  return page.evaluate(
    async ({ api, token, cart, key }) => {
      const send = async (): Promise<Outcome> => {
        try {
          const answer = await fetch(`${api}/api/v1/items/`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'idempotency-key': key,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ cart, part_number: 'CORS-1', quantity: 2 }),
          });
          return {
            status: answer.status,
            body: await answer.json(),
            replayed: answer.headers.get('idempotent-replayed'),
            requestId: answer.headers.get('x-request-id'),
          };
        } catch (error) {
          return { blocked: String(error) };
        }
      };
      return [await send(), await send()];
    },
    { api, token, cart, key },
  );
}

describe.skipIf(!HAVE_CHROMIUM)('CORS from a page on another origin, in Chromium', () => {
  let ctx: TestContext;
  let anna: Session;
  let browser: Browser;
  let allowed: { server: Server; origin: string };
  let other: { server: Server; origin: string };

  beforeAll(async () => {
    allowed = await pageServer();
    other = await pageServer();
    ctx = await startTestApp({ env: { CORS_ORIGINS: allowed.origin } });
    anna = await ctx.login('anna');
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close().catch(() => {});
    await ctx?.close();
    allowed?.server.close();
    other?.server.close();
  });

  async function openAt(origin: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/`);
    return page;
  }

  const itemsOf = async (cart: number) =>
    (await ctx.request('GET', `/api/v1/carts/${cart}/`, { token: anna.token })).body.items;

  it('lets an allowed origin write and read the answer and its exposed headers', async () => {
    const cart = await createCart(ctx, anna);
    const page = await openAt(allowed.origin);
    const [first, replay] = await addFromPage(page, ctx.url, anna.token, cart, 'cors-allowed-1');
    expect(first?.blocked).toBeUndefined();
    expect(first?.status).toBe(201);
    expect(first?.body).toMatchObject({ cart, part_number: 'CORS-1', quantity: 2 });
    expect(first?.requestId).toBeTruthy();
    // The replay's answer is the stored one, and the page can tell.
    expect(replay?.status).toBe(201);
    expect(replay?.replayed).toBe('true');
    const items = await itemsOf(cart);
    expect(items).toHaveLength(1);
    expect(items[0].quantity).toBe(2);
  }, 30_000);

  it('refuses any other origin: the browser blocks the call and nothing is written', async () => {
    const cart = await createCart(ctx, anna);
    const page = await openAt(other.origin);
    const [first, second] = await addFromPage(page, ctx.url, anna.token, cart, 'cors-other-1');
    expect(first?.blocked).toMatch(/TypeError/);
    expect(second?.blocked).toMatch(/TypeError/);
    expect(await itemsOf(cart)).toHaveLength(0);
  }, 30_000);
});
