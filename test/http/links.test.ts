import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';

// biome-ignore lint/suspicious/noExplicitAny: answers and upstream data reshaped freely
type Loose = any;

/**
 * Absolute links in answers (a list's `next`/`previous`, a shopping list's `Location`) are
 * built on PUBLIC_URL, or the listening address, never on a host a request names: not the
 * `Host` header, not `X-Forwarded-Host`/`-Proto`, even with TRUST_PROXY believing every hop.
 */

const FORGED = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
  'x-forwarded-for': '203.0.113.9',
};

/** A request with headers fetch() would not send (Host). */
function send(
  url: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; body: Loose }> {
  return new Promise((done, fail) => {
    const request = httpRequest(
      url + path,
      {
        method,
        headers: {
          ...FORGED,
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          done({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text ? JSON.parse(text) : undefined,
          }),
        );
      },
    );
    request.on('error', fail);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe.each([
  ['no PUBLIC_URL: the listening address', undefined],
  ['PUBLIC_URL with a path prefix', 'https://shop.example.com/ordering'],
])('links in answers, %s', (_name, publicUrl) => {
  let ctx: TestContext;
  let anna: Session;
  let base: string;

  beforeAll(async () => {
    ctx = await startTestApp({
      env: { TRUST_PROXY: 'true', ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}) },
    });
    anna = await ctx.login('anna');
    base = publicUrl ?? ctx.url;
    for (const name of ['One', 'Two', 'Three']) {
      await ctx.request('POST', '/api/v1/shopping-lists/', { token: anna.token, body: { name } });
    }
  });
  afterAll(() => ctx?.close());

  it("a list's next and previous ignore Host and X-Forwarded-*", async () => {
    const path = '/api/v1/shopping-lists/?page_size=1';
    const second = await send(ctx.url, 'GET', `${path}&page=2`, anna.token);
    expect(second.status).toBe(200);
    expect(second.body.next).toBe(`${base}${path}&page=3`);
    expect(second.body.previous).toBe(`${base}${path}`);
  });

  it("a new shopping list's Location ignores Host and X-Forwarded-*", async () => {
    const created = await send(ctx.url, 'POST', '/api/v1/shopping-lists/', anna.token, {
      name: 'Links',
    });
    expect(created.status).toBe(201);
    expect(created.headers.location).toMatch(
      new RegExp(`^${base.replace(/[.]/g, '\\.')}/api/v1/shopping-lists/\\d+/$`),
    );
  });
});
